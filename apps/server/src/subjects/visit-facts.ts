import { isValidDate, type StudyDefinition, type VisitScheduleEntry } from '@cdms/study';
import type { PregnancyTestMissing, VisitRoleFacts } from '../db/schema.ts';

/**
 * What the missing-forms and protocol-deviations reports (issue 17) need of each scheduled visit of a
 * subject — the visits whose forms include the visit-date form —, computed from the subject's saved
 * forms like its other facts and stored in the read model (`subject_visits`), so the reports read
 * ~6 rows per subject instead of joining every form and item value of the trial per request.
 * Pure: the refresh, the rebuild and the property test compute it the same way.
 */

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
  /** What the study's roles yield at this visit (none: an empty object), stored as one JSON value. */
  roleFacts: VisitRoleFacts;
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

/** The criteria (item keys) of a section of the eligibility form's default layout. */
function criterionKeys(definition: StudyDefinition, formKey: string, sectionKey: string): string[] {
  const form = definition.forms.find((entry) => entry.key === formKey);
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
  // Where the deviations' and clinical facts live: the study's roles (a study without one has no such fact).
  const { eligibility, treatmentApplication, pregnancyTest, demographics, healing, keyMeasures } =
    definition.roles ?? {};
  const inclusion = eligibility
    ? criterionKeys(definition, eligibility.form, eligibility.inclusionSection)
    : [];
  const exclusion = eligibility
    ? criterionKeys(definition, eligibility.form, eligibility.exclusionSection)
    : [];
  const facts: VisitFacts[] = [];
  for (const visit of definition.visits) {
    if (!visit.forms.includes(dateSource.form)) continue;
    const forms = subject.forms[visit.key] ?? {};
    const item = (formKey: string, itemKey: string) => textOf(forms[formKey]?.[itemKey]);
    const isSaved = (formKey: string) => saved.has(`${visit.key}/${formKey}`);
    // The visit date as stored (the deviations show it as saved); the schedule's is the valid date.
    const storedDate = item(dateSource.form, dateSource.item);
    const entry = schedule.get(visit.key);

    // The decision and the criteria are yesNo items (the roles' cross-checks): an eligible subject
    // failing an inclusion criterion (N) or meeting an exclusion criterion (Y).
    let eligibleFailingCriteria: string | null = null;
    if (eligibility && isSaved(eligibility.form) && item(eligibility.form, eligibility.decision) === 'Y') {
      const failing = [
        ...inclusion.filter((key) => item(eligibility.form, key) === 'N'),
        ...exclusion.filter((key) => item(eligibility.form, key) === 'Y'),
      ].sort(byCodePoint);
      if (failing.length > 0) eligibleFailingCriteria = failing.join(', ');
    }

    let treatmentAppliedOn: string | null = null;
    const device = treatmentApplication;
    if (
      device &&
      visit.key === device.visit &&
      isSaved(device.form) &&
      item(device.form, device.applied) === 'Y'
    ) {
      // Stored as a date: a text that is none (the item's type forbids it) cannot be compared.
      const appliedOn = item(device.form, device.date);
      if (isValidDate(appliedOn) && storedDate !== null && appliedOn !== storedDate)
        treatmentAppliedOn = appliedOn;
    }

    let pregnancyTestMissing: PregnancyTestMissing | null = null;
    const pregnancy = pregnancyTest;
    if (
      pregnancy &&
      demographics &&
      visit.forms.includes(pregnancy.form) &&
      isSaved(dateSource.form) &&
      subject.gender === demographics.femaleCode
    ) {
      const potential = isSaved(pregnancy.form)
        ? item(pregnancy.form, pregnancy.childbearingPotential)
        : null;
      if (potential === null) pregnancyTestMissing = 'notRecorded';
      else if (potential === 'Y' && item(pregnancy.form, pregnancy.result) === null)
        pregnancyTestMissing = 'noResult';
    }

    // Only values of the expected JSON type count, as the summary's SQL filtered them before.
    const healingOutcome = healing ? forms[healing.form]?.[healing.outcome] : undefined;
    const measureForm = keyMeasures ? forms[keyMeasures.form] : undefined;
    const measures: Record<string, number> = {};
    for (const itemKey of keyMeasures?.items ?? []) {
      const value = measureForm?.[itemKey];
      if (typeof value === 'number') measures[itemKey] = value;
    }
    const roleFacts: VisitRoleFacts = {};
    if (eligibleFailingCriteria !== null) roleFacts.eligibleFailingCriteria = eligibleFailingCriteria;
    if (treatmentAppliedOn !== null) roleFacts.treatmentAppliedOn = treatmentAppliedOn;
    if (pregnancyTestMissing !== null) roleFacts.pregnancyTestMissing = pregnancyTestMissing;
    if (typeof healingOutcome === 'string') roleFacts.healingOutcome = healingOutcome;
    if (Object.keys(measures).length > 0) roleFacts.measures = measures;

    facts.push({
      visitKey: visit.key,
      visitDate: entry?.actualDate ?? null,
      windowCloses: entry?.latestDate ?? null,
      emptyForms: visit.forms.filter((formKey) => !isSaved(formKey)),
      incompleteForms: visit.forms.filter((formKey) => saved.get(`${visit.key}/${formKey}`)?.missingRequired),
      roleFacts,
    });
  }
  return facts;
}
