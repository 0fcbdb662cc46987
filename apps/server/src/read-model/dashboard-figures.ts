import {
  type AgeGroup,
  type GenderGroup,
  type StatusCounts,
  type SubjectStatus,
  subjectStatuses,
} from '@cdms/contract';
import type { Code } from '@cdms/study';

/**
 * The dashboard's figures from groups of subjects that SQL counted (`dashboard.ts`): pure
 * functions, so each rule (bands, months, what counts as randomized) is written once and tested
 * without a database, and a figure costs the same at 30 subjects as at 5,000.
 */

/** What a figure needs to know about one subject (the read model's facts). */
export interface CountedSubject {
  status: SubjectStatus;
  randomizationNumber: string | null;
  gender: string | null;
  age: number | null;
  consentDate: string;
  adverseEventCount: number;
  seriousAdverseEventCount: number;
}

/** Subjects alike in everything the figures tell apart, with their count and event totals. */
export interface SubjectGroup {
  status: SubjectStatus;
  randomized: boolean;
  gender: string | null;
  /** An `AGE_BANDS` key, or `NOT_ENTERED`. */
  ageBand: string;
  subjects: number;
  adverseEvents: number;
  seriousAdverseEvents: number;
  subjectsWithAdverseEvents: number;
  subjectsWithSeriousAdverseEvents: number;
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

/** The band an age falls in (bounds inclusive): stored in the read model (`subject_facts.age_band`), which the dashboard groups by. */
export function ageBandOf(age: number | null): string {
  if (age === null) return NOT_ENTERED;
  const band = AGE_BANDS.find(
    (entry) =>
      (entry.minAge === null || age >= entry.minAge) && (entry.maxAge === null || age <= entry.maxAge),
  );
  return band?.key ?? NOT_ENTERED;
}

/** One subject as a group of one (what SQL's GROUP BY adds up). */
export function groupOfSubject(subject: CountedSubject): SubjectGroup {
  return {
    status: subject.status,
    randomized: subject.randomizationNumber !== null,
    gender: subject.gender,
    ageBand: ageBandOf(subject.age),
    subjects: 1,
    adverseEvents: subject.adverseEventCount,
    seriousAdverseEvents: subject.seriousAdverseEventCount,
    subjectsWithAdverseEvents: subject.adverseEventCount > 0 ? 1 : 0,
    subjectsWithSeriousAdverseEvents: subject.seriousAdverseEventCount > 0 ? 1 : 0,
  };
}

export function emptyStatusCounts(): StatusCounts {
  return Object.fromEntries(subjectStatuses.map((status) => [status, 0])) as StatusCounts;
}

export function groupCounts(groups: readonly SubjectGroup[]): {
  total: number;
  randomized: number;
  statuses: StatusCounts;
} {
  const statuses = emptyStatusCounts();
  let total = 0;
  let randomized = 0;
  for (const group of groups) {
    statuses[group.status] += group.subjects;
    total += group.subjects;
    if (group.randomized) randomized += group.subjects;
  }
  return { total, randomized, statuses };
}

/**
 * One group per code of the study's gender list (`subjectFactCodes(definition).gender`, in its
 * order), then any code the list does not know (kept visible rather than dropped), then subjects
 * without a gender.
 */
export function genderGroups(groups: readonly SubjectGroup[], codes: readonly Code[]): GenderGroup[] {
  const result: GenderGroup[] = codes.map((code) => ({
    key: code.code,
    label: { ko: code.label.ko, en: code.label.en },
    ...groupCounts(groups.filter((group) => group.gender === code.code)),
  }));
  const known = new Set(codes.map((code) => code.code));
  const unknown = [...new Set(groups.map((group) => group.gender))].filter(
    (gender): gender is string => gender !== null && !known.has(gender),
  );
  for (const gender of unknown.sort()) {
    result.push({
      key: gender,
      label: { ko: gender, en: gender },
      ...groupCounts(groups.filter((group) => group.gender === gender)),
    });
  }
  result.push({
    key: NOT_ENTERED,
    label: null,
    ...groupCounts(groups.filter((group) => group.gender === null)),
  });
  return result;
}

export function ageGroups(groups: readonly SubjectGroup[]): AgeGroup[] {
  return [
    ...AGE_BANDS.map((band) => ({
      ...band,
      ...groupCounts(groups.filter((group) => group.ageBand === band.key)),
    })),
    {
      key: NOT_ENTERED,
      minAge: null,
      maxAge: null,
      ...groupCounts(groups.filter((group) => group.ageBand === NOT_ENTERED)),
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
 * No subjects, no months. `counts` are the consents per month (YYYY-MM) that have any.
 */
export function monthlyRegistrations(
  counts: readonly { month: string; count: number }[],
  today: string,
): { month: string; count: number }[] {
  if (counts.length === 0) return [];
  const byMonth = new Map(counts.map((entry) => [entry.month, entry.count]));
  const consentMonths = [...byMonth.keys()].sort();
  const first = consentMonths[0] as string;
  const last = [...consentMonths, today.slice(0, 7)].sort().at(-1) as string;
  const series: { month: string; count: number }[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) {
    series.push({ month, count: byMonth.get(month) ?? 0 });
  }
  return series;
}

export function safetySummary(groups: readonly SubjectGroup[]) {
  const sum = (value: (group: SubjectGroup) => number) =>
    groups.reduce((total, group) => total + value(group), 0);
  return {
    adverseEvents: sum((group) => group.adverseEvents),
    seriousAdverseEvents: sum((group) => group.seriousAdverseEvents),
    subjectsWithAdverseEvents: sum((group) => group.subjectsWithAdverseEvents),
    subjectsWithSeriousAdverseEvents: sum((group) => group.subjectsWithSeriousAdverseEvents),
  };
}
