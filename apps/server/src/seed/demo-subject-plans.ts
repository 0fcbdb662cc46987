import path from 'node:path';
import { z } from 'zod';
import { readDataFile } from './read-data-file.ts';

// The cast of the living demo: 31 fictional subjects of TMP-2026 across the three demo sites, each at
// a different point of the study. Every date is counted back from the day the seed runs (consent
// `consentDaysAgo` days ago; screening 1–3 days later; baseline V2 14 days after screening; follow-ups
// inside their windows), so the demo never ages: visits fall due, run late or come up soon on any day
// it is started. Nothing here is real data. demo-casebooks.ts turns each plan into the form saves a
// site would make; demo-subjects.ts makes them through the API's own commands.
//
// The plans are data, kept in demo-subject-plans.json (issue 44 item 6); this module says what
// a plan is (the schema below, whose types the seed code uses) and reads the file, so a mistyped
// key or value fails at once with the subject and the field it concerns.

const institutionNumberSchema = z.enum(['01', '02', '03']);
export type InstitutionNumber = z.infer<typeof institutionNumberSchema>;
const sideSchema = z.enum(['L', 'R']);
export type Side = z.infer<typeof sideSchema>;
const followUpVisitSchema = z.enum(['v2', 'v3', 'v4', 'v5']);
export type FollowUpVisit = z.infer<typeof followUpVisitSchema>;
const aeVisitSchema = z.enum(['v2', 'v3', 'v4', 'v5', 'v6']);
export type AeVisit = z.infer<typeof aeVisitSchema>;

/** How the membrane heals over the follow-up visits (diameters shrink accordingly). */
const healingSchema = z.enum(['complete', 'partial', 'none']);
export type Healing = z.infer<typeof healingSchema>;

const historyPlanSchema = z.strictObject({
  content: z.string(),
  /** Days before the screening visit the condition began. */
  startedDaysBeforeScreening: z.number(),
  /** Days before screening it ended; absent while it goes on. */
  endedDaysBeforeScreening: z.number().optional(),
});
export type HistoryPlan = z.infer<typeof historyPlanSchema>;

const medicationPlanSchema = z.strictObject({
  drugName: z.string(),
  dose: z.number(),
  unit: z.string(),
  frequency: z.string(),
  route: z.enum(['oral', 'otic', 'topical', 'intravenous']),
  indication: z.string(),
  startedDaysBeforeScreening: z.number(),
  endedDaysBeforeScreening: z.number().optional(),
});
export type MedicationPlan = z.infer<typeof medicationPlanSchema>;

const adverseEventPlanSchema = z.strictObject({
  name: z.string(),
  /** The visit at which the event is first known (its interest form records it when it is of interest). */
  visit: aeVisitSchema,
  /** Onset relative to that visit's date (negative: before the visit, reported at it). */
  onsetDaysFromVisit: z.number(),
  /** Days until it resolved; null while it goes on. */
  durationDays: z.number().nullable(),
  serious: z.boolean(),
  severity: z.enum(['mild', 'moderate', 'severe']),
  causality: z.enum(['certain', 'probable', 'possible', 'unlikely', 'notRelated']),
  deviceAction: z.enum(['none', 'removed', 'notApplicable']),
  /** Outcome once resolved; while ongoing the outcome is "recovering". */
  outcome: z.enum(['recovered', 'recoveredWithSequelae', 'notRecovered']),
  /** The event of interest ticked on the visit's interest form. */
  interest: z.enum(['pain', 'otorrhea', 'reperforation']).optional(),
  others: z.string().optional(),
  /** Medication given for it, added to the concomitant medication from the onset. */
  treatment: medicationPlanSchema
    .omit({ startedDaysBeforeScreening: true, endedDaysBeforeScreening: true })
    .optional(),
});
export type AdverseEventPlan = z.infer<typeof adverseEventPlanSchema>;

const screeningFailureCauseSchema = z.enum([
  // V1 eligibility "no": perforation larger than the protocol's 60 %.
  'perforationTooLarge',
  // V1 eligibility "no": allergy to lidocaine (exclusion 03).
  'lidocaineAllergy',
  // Positive pregnancy test at screening.
  'pregnancy',
  // Temporal bone CT shows ossicular damage.
  'tbctFracture',
  // Consent withdrawn during screening: end of study answered "screening failure".
  'consentWithdrawn',
  // Otorrhoea at baseline: V2 eligibility "no".
  'otorrheaAtBaseline',
]);
export type ScreeningFailureCause = z.infer<typeof screeningFailureCauseSchema>;

const demoCourseSchema = z.discriminatedUnion('stage', [
  /** Registered today: consent only. */
  z.strictObject({ stage: z.literal('registered') }),
  /** In screening: the first `v1Forms` V1 forms entered (all 15: eligible, waiting for V2). */
  z.strictObject({ stage: z.literal('screening'), v1Forms: z.number().int().min(0).max(15) }),
  z.strictObject({ stage: z.literal('screeningFailure'), cause: screeningFailureCauseSchema }),
  /** Randomized and followed up to `lastVisit`. */
  z.strictObject({ stage: z.literal('ongoing'), lastVisit: followUpVisitSchema }),
  z.strictObject({ stage: z.literal('complete') }),
  z.strictObject({
    stage: z.literal('dropout'),
    lastVisit: followUpVisitSchema,
    /** dropoutReason code 001–010. */
    reason: z.enum(['001', '002', '003', '005', '007']),
    daysAfterLastVisit: z.number(),
    detail: z.string(),
  }),
]);
export type DemoCourse = z.infer<typeof demoCourseSchema>;

/**
 * Things that happen on the way: data entered wrongly and corrected with a reason (the audit trail's
 * changes), and data that rightly fail a query-severity check (open system queries).
 */
const twistSchema = z.enum([
  // Eardrum photos drawn and traced at every tympanicPhoto visit (issue 19).
  'eardrumPhotos',
  // V1 blood pressure entered the wrong way round (a query opens), corrected the next day.
  'bloodPressureSwapped',
  // V1 weight mistyped, corrected from the source record.
  'weightCorrected',
  // Birth date off by a year, corrected from the ID card.
  'birthDateCorrected',
  // A condition ended more than 12 weeks before screening (query: collection window).
  'oldHistory',
  // Screening labs taken 18 days before screening (query: 2-week substitution window).
  'oldLabs',
  // Temporal bone CT more than a year old (query: 1-year substitution window).
  'oldCt',
  // Device applied the day after the V2 visit (query: date differs from the visit).
  'deviceNextDay',
  // Bone conduction not done at V2 while eligible (query: reconfirm eligibility).
  'baselineBoneNotDone',
  // Ear discharge at screening while eligible (query: reconfirm eligibility).
  'screeningDischarge',
  // V3 six days after its window's middle: done out of window.
  'lateV3',
  // An abnormal, not clinically significant finding on the V1 physical examination.
  'skinFinding',
  // Glucose above the reference range at V1 (abnormal, not clinically significant).
  'highGlucose',
  // Ear canal suction at screening (prior treatment).
  'earSuction',
  // The PI signs the casebook.
  'signed',
  // Blood pressures written rounded to 0 or 5 (read off a manual cuff to the nearest 5 mmHg): the
  // central monitoring's terminal-digit preference at the site (issue 50).
  'bloodPressureRoundedToFive',
  // The V3 vital signs entered from another subject's chart: two subjects share one identical row,
  // which central monitoring finds as a duplicated record (issue 50).
  'vitalSignsCopied',
  // The PI signs, then a value is corrected (the signature is invalidated), and the PI signs again.
  'signedThenChanged',
]);
export type Twist = z.infer<typeof twistSchema>;

/**
 * A subject's plan, its history and medication entries given: the plan itself has them spelled out,
 * the file may name a common one instead.
 */
function subjectPlanSchema<History extends z.ZodType, Medication extends z.ZodType>(
  historyEntry: History,
  medicationEntry: Medication,
) {
  return z.strictObject({
    site: institutionNumberSchema,
    initials: z.string().regex(/^[A-Z]{2,3}$/),
    consentDaysAgo: z.number().int().min(0),
    sex: z.enum(['M', 'F']),
    /** Age in full years at consent. */
    age: z.number().int(),
    heightCm: z.number(),
    weightKg: z.number(),
    perforationSite: z.enum(['L', 'R', 'B']),
    applicationSite: sideSchema,
    /** Perforation as a percentage of the membrane on the V1 photograph. */
    perforationPercent: z.number(),
    /** Total membrane diameter on the V1 photograph (mm). */
    membraneDiameterMm: z.number(),
    healing: healingSchema,
    course: demoCourseSchema,
    history: z.array(historyEntry).optional(),
    medication: z.array(medicationEntry).optional(),
    adverseEvents: z.array(adverseEventPlanSchema).optional(),
    twists: z.array(twistSchema).optional(),
  });
}

const demoSubjectPlanSchema = subjectPlanSchema(historyPlanSchema, medicationPlanSchema);
export type DemoSubjectPlan = z.infer<typeof demoSubjectPlanSchema>;

/**
 * The file: conditions and medicines several subjects share, by name, and the subjects, whose
 * history and medication name a common one or spell out their own.
 */
const demoSubjectPlansFileSchema = z.strictObject({
  commonHistory: z.record(z.string(), historyPlanSchema),
  commonMedication: z.record(z.string(), medicationPlanSchema),
  subjects: z.array(
    subjectPlanSchema(z.union([z.string(), historyPlanSchema]), z.union([z.string(), medicationPlanSchema])),
  ),
});

export const DEMO_SUBJECT_PLANS_FILE = path.join(import.meta.dirname, 'demo-subject-plans.json');

/** The plans of a file like demo-subject-plans.json; throws naming the file and what is wrong. */
export function readDemoSubjectPlans(file: string): DemoSubjectPlan[] {
  const { commonHistory, commonMedication, subjects } = readDataFile(file, demoSubjectPlansFileSchema);
  /** A list's entries with the common ones it names looked up; an unknown name is an error. */
  function resolved<T>(entries: (string | T)[] | undefined, common: Record<string, T>, where: string) {
    return entries?.map((entry) => {
      if (typeof entry !== 'string') return entry;
      const found = common[entry];
      if (found === undefined)
        throw new Error(`${file}: ${where} names "${entry}", which is not a common one.`);
      return found;
    });
  }
  return subjects.map((subject) => {
    const who = `subject ${subject.site}-${subject.initials}`;
    return {
      ...subject,
      history: resolved(subject.history, commonHistory, `${who}'s history`),
      medication: resolved(subject.medication, commonMedication, `${who}'s medication`),
    };
  });
}

/** 12 subjects at 01 (HBU-1Y), 11 at 02 (SBH-2Y), 8 at 03 (NRM-3Y, which started recruiting later). */
export const demoSubjectPlans: DemoSubjectPlan[] = readDemoSubjectPlans(DEMO_SUBJECT_PLANS_FILE);
