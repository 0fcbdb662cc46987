import {
  type AgeGroup,
  type GenderGroup,
  type StatusCounts,
  type SubjectStatus,
  subjectStatuses,
} from '@cdms/contract';
import type { Code } from '@cdms/study';

/**
 * The dashboard's figures from the subjects' facts: pure functions, so each rule (bands, months,
 * what counts as randomized) is written once and tested without a database.
 */

/** What a figure needs to know about one subject (a subset of `SubjectFacts`). */
export interface CountedSubject {
  status: SubjectStatus;
  randomizationNumber: string | null;
  gender: string | null;
  age: number | null;
  consentDate: string;
  adverseEventCount: number;
  seriousAdverseEventCount: number;
}

/** The key of the group of subjects whose gender or age is not entered (no demographics yet). */
export const NOT_ENTERED = 'notEntered';

/** Age bands of the target-status doughnut, in full years at consent (the demographics form's age). */
export const AGE_BANDS: readonly { key: string; minAge: number | null; maxAge: number | null }[] = [
  { key: 'under30', minAge: null, maxAge: 29 },
  { key: '30to39', minAge: 30, maxAge: 39 },
  { key: '40to49', minAge: 40, maxAge: 49 },
  { key: '50to59', minAge: 50, maxAge: 59 },
  { key: '60to69', minAge: 60, maxAge: 69 },
  { key: '70andOver', minAge: 70, maxAge: null },
];

export function emptyStatusCounts(): StatusCounts {
  return Object.fromEntries(subjectStatuses.map((status) => [status, 0])) as StatusCounts;
}

export function groupCounts(subjects: readonly CountedSubject[]): {
  total: number;
  randomized: number;
  statuses: StatusCounts;
} {
  const statuses = emptyStatusCounts();
  for (const subject of subjects) statuses[subject.status] += 1;
  return {
    total: subjects.length,
    randomized: subjects.filter((subject) => subject.randomizationNumber !== null).length,
    statuses,
  };
}

/**
 * One group per code of the study's gender list (`subjectFactCodes(definition).gender`, in its
 * order), then any code the list does not know (kept visible rather than dropped), then subjects
 * without a gender.
 */
export function genderGroups(subjects: readonly CountedSubject[], codes: readonly Code[]): GenderGroup[] {
  const groups: GenderGroup[] = codes.map((code) => ({
    key: code.code,
    label: { ko: code.label.ko, en: code.label.en },
    ...groupCounts(subjects.filter((subject) => subject.gender === code.code)),
  }));
  const known = new Set(codes.map((code) => code.code));
  const unknown = [...new Set(subjects.map((subject) => subject.gender))].filter(
    (gender): gender is string => gender !== null && !known.has(gender),
  );
  for (const gender of unknown.sort()) {
    groups.push({
      key: gender,
      label: { ko: gender, en: gender },
      ...groupCounts(subjects.filter((subject) => subject.gender === gender)),
    });
  }
  groups.push({
    key: NOT_ENTERED,
    label: null,
    ...groupCounts(subjects.filter((subject) => subject.gender === null)),
  });
  return groups;
}

export function ageGroups(subjects: readonly CountedSubject[]): AgeGroup[] {
  const inBand = (age: number, band: (typeof AGE_BANDS)[number]) =>
    (band.minAge === null || age >= band.minAge) && (band.maxAge === null || age <= band.maxAge);
  return [
    ...AGE_BANDS.map((band) => ({
      ...band,
      ...groupCounts(subjects.filter((subject) => subject.age !== null && inBand(subject.age, band))),
    })),
    {
      key: NOT_ENTERED,
      minAge: null,
      maxAge: null,
      ...groupCounts(subjects.filter((subject) => subject.age === null)),
    },
  ];
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/**
 * Subjects per month of consent (the enrolment date), YYYY-MM, from the first month with a
 * subject to the current month (or the latest consent month, if later), every month listed.
 * No subjects, no months.
 */
export function monthlyRegistrations(
  subjects: readonly Pick<CountedSubject, 'consentDate'>[],
  today: string,
): { month: string; count: number }[] {
  if (subjects.length === 0) return [];
  const counts = new Map<string, number>();
  for (const subject of subjects) {
    const month = subject.consentDate.slice(0, 7);
    counts.set(month, (counts.get(month) ?? 0) + 1);
  }
  const consentMonths = [...counts.keys()].sort();
  const first = consentMonths[0] as string;
  const last = [...consentMonths, today.slice(0, 7)].sort().at(-1) as string;
  const series: { month: string; count: number }[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) {
    series.push({ month, count: counts.get(month) ?? 0 });
  }
  return series;
}

export function safetySummary(subjects: readonly CountedSubject[]) {
  return {
    adverseEvents: subjects.reduce((sum, subject) => sum + subject.adverseEventCount, 0),
    seriousAdverseEvents: subjects.reduce((sum, subject) => sum + subject.seriousAdverseEventCount, 0),
    subjectsWithAdverseEvents: subjects.filter((subject) => subject.adverseEventCount > 0).length,
    subjectsWithSeriousAdverseEvents: subjects.filter((subject) => subject.seriousAdverseEventCount > 0)
      .length,
  };
}
