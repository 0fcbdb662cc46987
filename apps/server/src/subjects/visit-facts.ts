import { isValidDate, type StudyDefinition, type VisitScheduleEntry } from '@cdms/study';
import type { PregnancyTestMissing } from '../db/schema.ts';

/**
 * What the missing-forms and protocol-deviations reports (issue 17) need of each scheduled visit of a
 * subject — the visits whose forms include the visit-date form —, computed from the subject's saved
 * forms like its other facts and stored in the read model (`subject_visits`), so the reports read
 * ~6 rows per subject instead of joining every form and item value of the trial per request.
 * Pure: the refresh, the rebuild and the property test compute it the same way.
 */

/** Where the deviations' facts live in the first study's forms (as `subject-facts.ts` names its own). */
export const DEVIATION_SOURCES = {
  eligibility: {
    formKey: 'inclusionExclusionEval',
    eligible: 'eligible',
    inclusion: 'inclusion',
    exclusion: 'exclusion',
  },
  device: { visitKey: 'v2', formKey: 'deviceApplication', applied: 'applied', date: 'applicationDate' },
  pregnancy: { formKey: 'pregnancyTest', potential: 'childbearingPotential', result: 'result' },
  female: 'F',
} as const;

/** Where the study summary's clinical figures live in the first study's forms (issue 17 item 2). */
export const CLINICAL_SOURCES = {
  healing: { formKey: 'tympanicPhoto', itemKey: 'evaluation' },
  hearing: { formKey: 'ptaTest', airAverage: 'airAverage', boneAverage: 'boneAverage' },
} as const;

/** The forms whose item values the deviations and the clinical facts read (at whatever visit they appear). */
export const DEVIATION_FORMS = [
  DEVIATION_SOURCES.eligibility.formKey,
  DEVIATION_SOURCES.device.formKey,
  DEVIATION_SOURCES.pregnancy.formKey,
  CLINICAL_SOURCES.healing.formKey,
  CLINICAL_SOURCES.hearing.formKey,
];

export interface SavedForm {
  visitKey: string;
  formKey: string;
  /** Saved with required items missing (the overview's "dash"). */
  missingRequired: boolean;
}

export interface VisitFacts {
  visitKey: string;
  /** The visit date saved: the visit is done. */
  visitDate: string | null;
  /** The last day of the window, once the anchor visit is done. */
  windowCloses: string | null;
  emptyForms: string[];
  incompleteForms: string[];
  eligibleFailingCriteria: string | null;
  deviceAppliedOn: string | null;
  pregnancyTestMissing: PregnancyTestMissing | null;
  /** The healing evaluation saved at this visit (a code), as the summary counts it. */
  healingOutcome: string | null;
  /** The PTA averages saved at this visit (dB), as the summary averages them. */
  ptaAirAverage: number | null;
  ptaBoneAverage: number | null;
}

/** Item values by visit, form and item key, as `loadSubjectFacts` reads them. */
export type VisitForms = Record<string, Record<string, Record<string, unknown>>>;

/**
 * A stored value as the reports' SQL compared it (`value #>> '{}'`): a JSON string as itself, other
 * scalars as their JSON text, nothing as null. (Only strings are compared with codes and dates.)
 */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function criterionKeys(definition: StudyDefinition, sectionKey: string): string[] {
  const form = definition.forms.find((entry) => entry.key === DEVIATION_SOURCES.eligibility.formKey);
  return form?.sections.find((section) => section.key === sectionKey)?.items.map((item) => item.key) ?? [];
}

/** Code-point order (the keys are ASCII), as the report listed the failing criteria. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function visitFactsOf(
  definition: StudyDefinition,
  subject: {
    forms: VisitForms;
    savedForms: SavedForm[];
    gender: string | null;
    schedule: VisitScheduleEntry[];
  },
): VisitFacts[] {
  const dateSource = definition.visitDate;
  if (!dateSource) return [];
  const saved = new Map(subject.savedForms.map((form) => [`${form.visitKey}/${form.formKey}`, form]));
  const schedule = new Map(subject.schedule.map((entry) => [entry.visitKey, entry]));
  const inclusion = criterionKeys(definition, DEVIATION_SOURCES.eligibility.inclusion);
  const exclusion = criterionKeys(definition, DEVIATION_SOURCES.eligibility.exclusion);
  const facts: VisitFacts[] = [];
  for (const visit of definition.visits) {
    if (!visit.forms.includes(dateSource.form)) continue;
    const forms = subject.forms[visit.key] ?? {};
    const item = (formKey: string, itemKey: string) => textOf(forms[formKey]?.[itemKey]);
    const isSaved = (formKey: string) => saved.has(`${visit.key}/${formKey}`);
    // The visit date as stored (the deviations show it as saved); the schedule's is the valid date.
    const storedDate = item(dateSource.form, dateSource.item);
    const entry = schedule.get(visit.key);

    let eligibleFailingCriteria: string | null = null;
    const eligibility = DEVIATION_SOURCES.eligibility;
    if (isSaved(eligibility.formKey) && item(eligibility.formKey, eligibility.eligible) === 'Y') {
      const failing = [
        ...inclusion.filter((key) => item(eligibility.formKey, key) === 'N'),
        ...exclusion.filter((key) => item(eligibility.formKey, key) === 'Y'),
      ].sort(byCodePoint);
      if (failing.length > 0) eligibleFailingCriteria = failing.join(', ');
    }

    let deviceAppliedOn: string | null = null;
    const device = DEVIATION_SOURCES.device;
    if (
      visit.key === device.visitKey &&
      isSaved(device.formKey) &&
      item(device.formKey, device.applied) === 'Y'
    ) {
      // Stored as a date: a text that is none (the item's type forbids it) cannot be compared.
      const appliedOn = item(device.formKey, device.date);
      if (isValidDate(appliedOn) && storedDate !== null && appliedOn !== storedDate)
        deviceAppliedOn = appliedOn;
    }

    let pregnancyTestMissing: PregnancyTestMissing | null = null;
    const pregnancy = DEVIATION_SOURCES.pregnancy;
    if (
      visit.forms.includes(pregnancy.formKey) &&
      isSaved(dateSource.form) &&
      subject.gender === DEVIATION_SOURCES.female
    ) {
      const potential = isSaved(pregnancy.formKey) ? item(pregnancy.formKey, pregnancy.potential) : null;
      if (potential === null) pregnancyTestMissing = 'notRecorded';
      else if (potential === 'Y' && item(pregnancy.formKey, pregnancy.result) === null)
        pregnancyTestMissing = 'noResult';
    }

    // Only values of the expected JSON type count, as the summary's SQL filtered them before.
    const healing = forms[CLINICAL_SOURCES.healing.formKey]?.[CLINICAL_SOURCES.healing.itemKey];
    const numberAt = (itemKey: string) => {
      const value = forms[CLINICAL_SOURCES.hearing.formKey]?.[itemKey];
      return typeof value === 'number' ? value : null;
    };

    facts.push({
      visitKey: visit.key,
      visitDate: entry?.actualDate ?? null,
      windowCloses: entry?.latestDate ?? null,
      emptyForms: visit.forms.filter((formKey) => !isSaved(formKey)),
      incompleteForms: visit.forms.filter((formKey) => saved.get(`${visit.key}/${formKey}`)?.missingRequired),
      eligibleFailingCriteria,
      deviceAppliedOn,
      pregnancyTestMissing,
      healingOutcome: typeof healing === 'string' ? healing : null,
      ptaAirAverage: numberAt(CLINICAL_SOURCES.hearing.airAverage),
      ptaBoneAverage: numberAt(CLINICAL_SOURCES.hearing.boneAverage),
    });
  }
  return facts;
}
