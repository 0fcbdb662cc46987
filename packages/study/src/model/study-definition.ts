import { z } from 'zod';
import { collectParams, collectRefs, type Expression, expressionSchema } from './expression.ts';
import { localizedTextSchema } from './localized-text.ts';
import { studyRoleFields } from './study-role-fields.ts';

// The study definition: visits → forms → sections → items, plus conditions, derivations, edit checks and
// routing outcomes. It is plain JSON (no functions) so the same document drives the browser renderer, the
// server validator and an ODM export. Types are inferred from the schemas so the two never drift.

/** Keys become parts of `visit.form.item` references, so they are simple identifiers without dots. */
export const keySchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]*$/, 'a key is letters and digits, starting with a letter');

export const ITEM_TYPES = [
  'text',
  'textarea',
  'integer',
  'decimal',
  'date',
  'time',
  'singleChoice',
  'multipleChoice',
  'checkbox',
  'yesNo',
  /** A stored photograph (issue 19): the value is `<id>:<sha256>` of a photo uploaded for the subject. */
  'photo',
  /** A tracing drawn on the form's photo (issue 19): the value is its JSON text (`engine/tracing.ts`). */
  'tracing',
] as const;
export const itemTypeSchema = z.enum(ITEM_TYPES);
export type ItemType = z.infer<typeof itemTypeSchema>;

export const SEVERITIES = ['warning', 'query', 'hard'] as const;
/**
 * warning: shown while typing, nothing stored; query: saving opens a system query on the item;
 * hard: the save is refused (422).
 */
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

export const codeSchema = z.strictObject({
  code: z.string().min(1),
  label: localizedTextSchema,
});
export type Code = z.infer<typeof codeSchema>;

export const codeListSchema = z.strictObject({
  key: keySchema,
  codes: z.array(codeSchema).min(1),
});
export type CodeList = z.infer<typeof codeListSchema>;

export const itemSchema = z.strictObject({
  key: keySchema,
  type: itemTypeSchema,
  label: localizedTextSchema,
  help: localizedTextSchema.optional(),
  /** A unit symbol shown after the input (cm, kg, mmHg, dB…). */
  unit: z.string().min(1).optional(),
  /** Digits after the decimal point allowed for `decimal` items. */
  decimals: z.int().min(0).max(6).optional(),
  /**
   * Soft range for numbers: the values expected in this study's people. A value outside raises a check of
   * `rangeSeverity` (default query) — unusual but possible, so the site confirms it.
   */
  min: z.number().optional(),
  max: z.number().optional(),
  rangeSeverity: severitySchema.optional(),
  /**
   * Hard limits for numbers: the values no living person (or no instrument) can give. A value outside is
   * refused on save (a check of severity hard); inside the limits but outside min/max the soft check runs.
   */
  hardMin: z.number().optional(),
  hardMax: z.number().optional(),
  maxLength: z.int().positive().optional(),
  /** A regular expression a text value must match in full (for example the randomization number). */
  pattern: z.string().optional(),
  required: z.boolean().optional(),
  /** Required only while this expression is true (in addition to `required`). */
  requiredWhen: expressionSchema.optional(),
  /** Shown only while this expression is true; hidden items are neither required nor checked. */
  showWhen: expressionSchema.optional(),
  /** Filled by the system (for example the screening number), never typed by a user. */
  readOnly: z.boolean().optional(),
  /** A computed value: shown read-only, recomputed by the engine and stored with the data. */
  derive: expressionSchema.optional(),
  /** Code list key for singleChoice and multipleChoice (yesNo has its own built-in Y/N list). */
  codeList: keySchema.optional(),
  display: z.enum(['radio', 'select']).optional(),
  /** A date that cannot lie after today (checked with severity hard). */
  notFuture: z.boolean().optional(),
  /**
   * A critical item (eligibility, primary endpoint, safety): a targeted SDV plan verifies these in
   * every subject (issue 15). Inside a repeating group the whole group is verified as one.
   */
  critical: z.literal(true).optional(),
  /**
   * Personal data that identifies the subject (a name, a birth date, a hospital number: REDCap's
   * "Identifier?"), which a de-identified export is to leave out.
   */
  personalData: z.literal(true).optional(),
});
export type ItemDefinition = z.infer<typeof itemSchema>;

export const repeatingGroupSchema = z.strictObject({
  /** The key under which the rows are stored in the form values (an array of row objects). */
  key: keySchema,
  /** At least one row is required while the section is shown and not marked "not done". */
  rowsRequired: z.boolean().optional(),
  maxRows: z.int().positive().optional(),
});
export type RepeatingGroup = z.infer<typeof repeatingGroupSchema>;

export const sectionSchema = z.strictObject({
  key: keySchema,
  label: localizedTextSchema,
  /** Instruction or declaration text shown at the top of the section. */
  help: localizedTextSchema.optional(),
  /**
   * Key of a checkbox item of the same form: while it is checked the section is disabled and its required
   * items count as satisfied ("ND", not done). The checkbox itself stays enabled.
   */
  notDoneItem: keySchema.optional(),
  showWhen: expressionSchema.optional(),
  repeating: repeatingGroupSchema.optional(),
  items: z.array(itemSchema),
});
export type SectionDefinition = z.infer<typeof sectionSchema>;

/** Which visits a check or an outcome applies to; absent means every visit that has the form. */
const visitsFilterSchema = z.array(keySchema).min(1).optional();

export const checkSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]*$/),
  /** The item the message attaches to; inside a repeating group the check runs once per row. */
  item: keySchema,
  /** The check fails (raises its message) when this expression is true; false or unknown means it passes. */
  when: expressionSchema,
  severity: severitySchema,
  message: localizedTextSchema,
  visits: visitsFilterSchema,
});
export type CheckDefinition = z.infer<typeof checkSchema>;

export const OUTCOME_KINDS = ['goToEndOfStudy', 'excluded', 'goToAdverseEvent'] as const;
export const outcomeKindSchema = z.enum(OUTCOME_KINDS);
export type OutcomeKind = z.infer<typeof outcomeKindSchema>;

/** A routing outcome (spec §4): the engine reports it, the application prompts with a link to the target. */
export const outcomeSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]*$/),
  kind: outcomeKindSchema,
  when: expressionSchema,
  target: z.strictObject({ visit: keySchema, form: keySchema }).optional(),
  message: localizedTextSchema,
  visits: visitsFilterSchema,
});
export type OutcomeDefinition = z.infer<typeof outcomeSchema>;

export const formVariantSchema = z.strictObject({
  /** The visits this layout is used in, instead of the form's default sections. */
  visits: z.array(keySchema).min(1),
  sections: z.array(sectionSchema).min(1),
});
export type FormVariant = z.infer<typeof formVariantSchema>;

export const formSchema = z.strictObject({
  key: keySchema,
  label: localizedTextSchema,
  sections: z.array(sectionSchema).min(1),
  variants: z.array(formVariantSchema).optional(),
  checks: z.array(checkSchema).optional(),
  outcomes: z.array(outcomeSchema).optional(),
});
export type FormDefinition = z.infer<typeof formSchema>;

export const VISIT_GROUPS = ['consent', 'screening', 'baseline', 'follow_up', 'end_of_study', 'all'] as const;
export const visitGroupSchema = z.enum(VISIT_GROUPS);
export type VisitGroup = z.infer<typeof visitGroupSchema>;

/**
 * A visit window relative to the date of an anchor visit: expected on anchor + offsetDays, acceptable from
 * expected − minusDays to expected + plusDays.
 */
export const visitWindowSchema = z.strictObject({
  anchorVisit: keySchema,
  offsetDays: z.int(),
  minusDays: z.int().min(0),
  plusDays: z.int().min(0),
});
export type VisitWindow = z.infer<typeof visitWindowSchema>;

export const visitSchema = z.strictObject({
  key: keySchema,
  label: localizedTextSchema,
  group: visitGroupSchema,
  window: visitWindowSchema.optional(),
  forms: z.array(keySchema),
});
export type VisitDefinition = z.infer<typeof visitSchema>;

/**
 * What an unscheduled visit may hold (issue 19 item 1). Site staff add such visits to a subject as
 * needed, each with its date and reason (kept with the visit, not in a form); each gets the visit key
 * `unscheduled-<n>` (`visit-keys.ts`). It has no window and never moves the protocol's windows.
 */
export const unscheduledVisitSchema = z.strictObject({
  label: localizedTextSchema,
  forms: z.array(keySchema).min(1),
});
export type UnscheduledVisitDefinition = z.infer<typeof unscheduledVisitSchema>;

export const parameterSchema = z.strictObject({
  value: z.union([z.number(), z.string()]),
  label: localizedTextSchema,
});
export type ParameterDefinition = z.infer<typeof parameterSchema>;

/**
 * How a subject's status follows from their data (product.md "Subject status workflow"). Each rule
 * is a condition over the whole subject (three-part references `visit.form.item`); the first that
 * holds, in the order complete, dropout, screeningFailure, ongoing, decides; none means screening.
 */
export const subjectStatusRulesSchema = z.strictObject({
  complete: expressionSchema,
  dropout: expressionSchema,
  screeningFailure: expressionSchema,
  ongoing: expressionSchema,
});
export type SubjectStatusRules = z.infer<typeof subjectStatusRulesSchema>;

/**
 * Roles (issue 45 item 3): which of the study's forms and items play a part the application knows — the
 * subject's sex and age, the adverse events, the end of study… The server and web read these pointers
 * instead of naming a study's keys. Every role is optional: a study without one lacks that feature (its
 * facts stay empty) and never fails. `findDefinitionProblems` checks that each names forms, visits,
 * sections and items that exist, of the types the application reads. What each field names (a visit, a
 * form, an item of which types, a code of which item…) is `studyRoleFields` (study-role-fields.ts), which
 * the checks and the designer's roles editor read. docs/STUDY-DEFINITION.md "Roles".
 */
export const studyRolesSchema = z.strictObject({
  /** The registration form a new subject's consent date (a date), initials and screening number (texts, when it has them) are written to, at one visit; deleting a subject keeps it. */
  registration: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      consentDate: keySchema,
      initials: keySchema.optional(),
      screeningNumber: keySchema.optional(),
    })
    .optional(),
  /** Sex (a singleChoice; its female and male codes) and age in years (a number), at one visit: the subject list, dashboard, lab ranges and pregnancy test read them. */
  demographics: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      sex: keySchema,
      femaleCode: z.string().min(1),
      maleCode: z.string().min(1),
      age: keySchema,
    })
    .optional(),
  /**
   * Randomization, at one visit: the form the system fills when a subject is randomized. `eligible` is the
   * derived yesNo item that must say Y (the study's rule); then the assignment date (a date), the
   * randomization number (a text) and the group (a singleChoice holding the list's groups `treatment` and
   * `control`, written only where the study shows the group) are filled.
   */
  randomization: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      eligible: keySchema,
      assignmentDate: keySchema,
      number: keySchema,
      group: keySchema,
    })
    .optional(),
  /**
   * The investigator's signing form, at one visit: only signing the casebook fills it (the signature
   * date, a date, and the signer's name, a text, when it has them); saves of it are refused, it is not
   * part of what is signed, and the help of its first section with one is what the signature means.
   */
  signing: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      signatureDate: keySchema.optional(),
      signerName: keySchema.optional(),
    })
    .optional(),
  /**
   * The adverse events: a repeating group (`rows`) whose yesNo item `serious` marks a serious event. The
   * listing's columns are items of the rows, each optional (a column the study lacks stays empty): the
   * term (a text), start and end dates (dates), severity, causality, action taken with the investigational
   * product and outcome (singleChoices, labelled from their code lists).
   */
  adverseEvents: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      rows: keySchema,
      serious: keySchema,
      term: keySchema.optional(),
      startDate: keySchema.optional(),
      endDate: keySchema.optional(),
      severity: keySchema.optional(),
      causality: keySchema.optional(),
      actionTaken: keySchema.optional(),
      outcome: keySchema.optional(),
    })
    .optional(),
  /**
   * The prior and concomitant medication: a repeating group (`rows`) whose text item `name` is the drug
   * name as the site wrote it — the verbatim medical coding codes against WHODrug (issue 51).
   */
  medications: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      rows: keySchema,
      name: keySchema,
    })
    .optional(),
  /** The end-of-study page: the reason (a singleChoice) of a screening failure and of a dropout. */
  endOfStudy: z
    .strictObject({
      visit: keySchema,
      form: keySchema,
      screeningFailureReason: keySchema,
      dropoutReason: keySchema,
    })
    .optional(),
  /** The eligibility decision (yesNo) and the sections of yesNo criteria: an inclusion "N" or exclusion "Y" contradicts an eligible subject. */
  eligibility: z
    .strictObject({
      form: keySchema,
      decision: keySchema,
      inclusionSection: keySchema,
      exclusionSection: keySchema,
    })
    .optional(),
  /** The investigational treatment given (yesNo `applied`) and its date, at one visit: a date other than the visit's is a deviation. */
  treatmentApplication: z
    .strictObject({ visit: keySchema, form: keySchema, applied: keySchema, date: keySchema })
    .optional(),
  /** The pregnancy test of a female subject: childbearing potential (yesNo) and the result; missing ones are deviations. */
  pregnancyTest: z
    .strictObject({ form: keySchema, childbearingPotential: keySchema, result: keySchema })
    .optional(),
  /**
   * The laboratory panel: the form whose numeric tests carry the sites' normal ranges (decimal items
   * `<test>Result`, with `<test>Normal` and `<test>Significance` beside them: `engine/lab-tests.ts`), and its
   * specimen date (a date), on which the range in force applies.
   */
  labPanel: z.strictObject({ form: keySchema, specimenDate: keySchema }).optional(),
  /**
   * The audiogram: the pure-tone audiometry form whose integer items `air<Hz>` and `bone<Hz>` are charted
   * (`engine/audiogram.ts`), and, when the study records it, the treated ear (a singleChoice at one visit,
   * with its right and left codes) whose symbols the chart uses.
   */
  audiogram: z
    .strictObject({
      form: keySchema,
      treatedEar: z
        .strictObject({
          visit: keySchema,
          form: keySchema,
          item: keySchema,
          rightCode: z.string().min(1),
          leftCode: z.string().min(1),
        })
        .optional(),
    })
    .optional(),
  /** The healing outcome (a singleChoice) the study summary counts per visit. */
  healing: z.strictObject({ form: keySchema, outcome: keySchema }).optional(),
  /**
   * The study's key measures: number items of one form (1–8, in the order shown) whose n, mean and median
   * the study summary gives per visit the form is collected at, and the change from the first such visit
   * to the last; each is labelled with its item's label and unit.
   */
  keyMeasures: z.strictObject({ form: keySchema, items: z.array(keySchema).min(1).max(8) }).optional(),
  /**
   * Events of interest: yesNo items of one form (1–8, in the order shown) the adverse event report counts
   * per visit (forms saved, and answered "Y" for each), labelled with the items' labels.
   */
  eventsOfInterest: z.strictObject({ form: keySchema, items: z.array(keySchema).min(1).max(8) }).optional(),
});
export type StudyRoles = z.infer<typeof studyRolesSchema>;

const baseStudyDefinitionSchema = z.strictObject({
  key: keySchema,
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  label: localizedTextSchema,
  /** Where each visit's date is recorded (used for visit windows). */
  visitDate: z.strictObject({ form: keySchema, item: keySchema }).optional(),
  /** Named values (date windows, thresholds) used by expressions through `{ "param": name }`. */
  parameters: z.record(keySchema, parameterSchema).optional(),
  codeLists: z.array(codeListSchema),
  visits: z.array(visitSchema).min(1),
  /** The forms an unscheduled visit may hold; absent: the study has no unscheduled visits. */
  unscheduledVisit: unscheduledVisitSchema.optional(),
  forms: z.array(formSchema).min(1),
  subjectStatus: subjectStatusRulesSchema.optional(),
  /** What the application reads of the study's forms (issue 45 item 3); each role optional. */
  roles: studyRolesSchema.optional(),
});

/** The sections a form shows in a visit: the first variant listing the visit, else the default sections. */
export function sectionsForVisit(form: FormDefinition, visitKey: string): SectionDefinition[] {
  for (const variant of form.variants ?? []) {
    if (variant.visits.includes(visitKey)) return variant.sections;
  }
  return form.sections;
}

/**
 * How a single choice or yes/no item shows its codes: its `display`, else radio buttons for yes/no and
 * a drop-down list for a single choice. Undefined for types that have no such choice.
 */
export function choiceDisplay(
  item: Pick<ItemDefinition, 'type' | 'display'>,
): 'radio' | 'select' | undefined {
  if (item.type !== 'singleChoice' && item.type !== 'yesNo') return undefined;
  return item.display ?? (item.type === 'yesNo' ? 'radio' : 'select');
}

/** Whether the form at the visit is the study's signing form (its `signing` role), which only signing fills. */
export function isSigningForm(definition: StudyShape, visitKey: string, formKey: string): boolean {
  const signing = definition.roles?.signing;
  return signing !== undefined && visitKey === signing.visit && formKey === signing.form;
}

/** Whether a check or outcome with this `visits` filter applies in the visit. */
export function appliesToVisit(filter: string[] | undefined, visitKey: string): boolean {
  return filter === undefined || filter.includes(visitKey);
}

type StudyShape = z.infer<typeof baseStudyDefinitionSchema>;

/** Keys (items and repeating groups) of a layout, and the problems found in it. */
function layoutKeys(
  sections: SectionDefinition[],
  problems: ProblemText[],
  where: string,
): Map<string, ItemDefinition | null> {
  const keys = new Map<string, ItemDefinition | null>();
  const add = (key: string, item: ItemDefinition | null) => {
    if (keys.has(key))
      problems.push({ en: `${where}: duplicate key ${key}`, ko: `${where}: 중복된 키 ${key}` });
    keys.set(key, item);
  };
  const sectionKeys = new Set<string>();
  for (const section of sections) {
    if (sectionKeys.has(section.key))
      problems.push({
        en: `${where}: duplicate section ${section.key}`,
        ko: `${where}: 중복된 섹션 ${section.key}`,
      });
    sectionKeys.add(section.key);
    if (section.repeating) add(section.repeating.key, null);
    for (const item of section.items) add(item.key, item);
  }
  for (const section of sections) {
    if (section.notDoneItem === undefined) continue;
    const ndItem = keys.get(section.notDoneItem);
    const inRows = sections.some((s) => s.repeating && s.items.some((i) => i.key === section.notDoneItem));
    if (ndItem?.type !== 'checkbox' || inRows) {
      problems.push({
        en: `${where}.${section.key}: notDoneItem ${section.notDoneItem} is not a checkbox of the form`,
        ko: `${where}.${section.key}: notDoneItem ${section.notDoneItem} — 같은 양식의 체크박스가 아닙니다`,
      });
    }
  }
  return keys;
}

/**
 * The keys an expression's reference may name, built once per definition — the one rule the
 * definition's checks (`findDefinitionProblemTexts`) and the designer's expression text
 * (expression-text/) both resolve with. A one- or two-part reference (`item`, `form.item`) names a
 * key of any layout of the form, default or variant; a three-part one (`visit.form.item`) a key of
 * the form as laid out at that visit. Keys are items and repeating groups (null: a group's rows).
 */
export interface ReferenceScope {
  ofForm: Map<string, Set<string>>;
  atVisit: Map<string, Map<string, ItemDefinition | null>>;
}

export function referenceScope(study: Pick<StudyShape, 'forms' | 'visits'>): ReferenceScope {
  const forms = new Map(study.forms.map((form) => [form.key, form]));
  const ofForm = new Map<string, Set<string>>();
  for (const form of study.forms) {
    const union = new Set<string>();
    for (const sections of [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)])
      for (const key of layoutKeys(sections, [], '').keys()) union.add(key);
    ofForm.set(form.key, union);
  }
  const atVisit = new Map<string, Map<string, ItemDefinition | null>>();
  for (const visit of study.visits) {
    for (const formKey of visit.forms) {
      const form = forms.get(formKey);
      if (form) atVisit.set(`${visit.key}.${formKey}`, layoutKeys(sectionsForVisit(form, visit.key), [], ''));
    }
  }
  return { ofForm, atVisit };
}

/**
 * Whether a reference names something in the scope, written in a form (`formKey`) or, without one,
 * where only `visit.form.item` is understood (status rules look at the whole subject).
 */
export function referenceResolves(scope: ReferenceScope, ref: string, formKey: string | undefined): boolean {
  const parts = ref.split('.');
  if (parts.length === 3) return scope.atVisit.get(`${parts[0]}.${parts[1]}`)?.has(parts[2] ?? '') ?? false;
  if (formKey === undefined) return false;
  if (parts.length === 1) return scope.ofForm.get(formKey)?.has(ref) ?? false;
  if (parts.length === 2) return scope.ofForm.get(parts[0] ?? '')?.has(parts[1] ?? '') ?? false;
  return false;
}

/** A problem of a definition in both languages: the place (a key path) and what is wrong there. */
export interface ProblemText {
  en: string;
  ko: string;
}

/** Cross-reference checks a plain schema cannot express, in English (empty when sound). */
export function findDefinitionProblems(study: StudyShape): string[] {
  return findDefinitionProblemTexts(study).map((problem) => problem.en);
}

/**
 * Cross-reference checks a plain schema cannot express, each in English and Korean (empty when sound):
 * a designer's upload lists them in the language of whoever uploads it.
 */
export function findDefinitionProblemTexts(study: StudyShape): ProblemText[] {
  const problems: ProblemText[] = [];
  const codeLists = new Set<string>();
  for (const list of study.codeLists) {
    if (codeLists.has(list.key))
      problems.push({ en: `duplicate code list ${list.key}`, ko: `중복된 코드 목록 ${list.key}` });
    codeLists.add(list.key);
    const codes = new Set(list.codes.map((c) => c.code));
    if (codes.size !== list.codes.length)
      problems.push({
        en: `code list ${list.key}: duplicate code`,
        ko: `코드 목록 ${list.key}: 중복된 코드`,
      });
  }
  const forms = new Map<string, FormDefinition>();
  for (const form of study.forms) {
    if (forms.has(form.key))
      problems.push({ en: `duplicate form ${form.key}`, ko: `중복된 양식 ${form.key}` });
    forms.set(form.key, form);
  }
  const visits = new Map<string, string[]>();
  for (const visit of study.visits) {
    if (visits.has(visit.key))
      problems.push({ en: `duplicate visit ${visit.key}`, ko: `중복된 방문 ${visit.key}` });
    visits.set(visit.key, visit.forms);
  }
  for (const visit of study.visits) {
    for (const formKey of visit.forms) {
      if (!forms.has(formKey))
        problems.push({
          en: `visit ${visit.key}: unknown form ${formKey}`,
          ko: `방문 ${visit.key}: 알 수 없는 양식 ${formKey}`,
        });
    }
    if (visit.window && !visits.has(visit.window.anchorVisit)) {
      problems.push({
        en: `visit ${visit.key}: unknown anchor visit ${visit.window.anchorVisit}`,
        ko: `방문 ${visit.key}: 알 수 없는 기준 방문 ${visit.window.anchorVisit}`,
      });
    }
  }
  for (const formKey of study.unscheduledVisit?.forms ?? []) {
    if (!forms.has(formKey))
      problems.push({
        en: `unscheduledVisit: unknown form ${formKey}`,
        ko: `unscheduledVisit: 알 수 없는 양식 ${formKey}`,
      });
  }
  if (study.visitDate) {
    const form = forms.get(study.visitDate.form);
    const item = form?.sections.some((s) => s.items.some((i) => i.key === study.visitDate?.item));
    if (!item)
      problems.push({
        en: `visitDate: unknown item ${study.visitDate.form}.${study.visitDate.item}`,
        ko: `visitDate: 알 수 없는 항목 ${study.visitDate.form}.${study.visitDate.item}`,
      });
  }

  // Each layout's own problems (duplicate keys and sections), then what references may name.
  for (const form of study.forms) {
    const layouts = [{ sections: form.sections, name: form.key }];
    for (const [index, variant] of (form.variants ?? []).entries()) {
      layouts.push({ sections: variant.sections, name: `${form.key}.variants[${index}]` });
      for (const visitKey of variant.visits) {
        if (!visits.has(visitKey))
          problems.push({
            en: `${form.key}: variant for unknown visit ${visitKey}`,
            ko: `${form.key}: 변형이 가리키는 알 수 없는 방문 ${visitKey}`,
          });
      }
    }
    for (const layout of layouts) {
      layoutKeys(layout.sections, problems, layout.name);
      for (const section of layout.sections) {
        for (const item of section.items) {
          const where = `${layout.name}.${item.key}`;
          const isChoice = item.type === 'singleChoice' || item.type === 'multipleChoice';
          if (isChoice && (item.codeList === undefined || !codeLists.has(item.codeList))) {
            problems.push({
              en: `${where}: choice item needs a known codeList`,
              ko: `${where}: 선택 항목에는 정의된 codeList가 필요합니다`,
            });
          }
          if (!isChoice && item.codeList !== undefined)
            problems.push({
              en: `${where}: codeList on a ${item.type} item`,
              ko: `${where}: ${item.type} 항목에는 codeList를 둘 수 없습니다`,
            });
          if (section.repeating && item.derive !== undefined) {
            problems.push({
              en: `${where}: derived items cannot sit in a repeating group`,
              ko: `${where}: 파생 항목은 반복 그룹 안에 둘 수 없습니다`,
            });
          }
          if (item.pattern !== undefined && !isValidPattern(item.pattern))
            problems.push({ en: `${where}: bad pattern`, ko: `${where}: 올바르지 않은 정규식(pattern)` });
          problems.push(...rangeProblems(item, where));
        }
      }
    }
  }
  const scope = referenceScope(study);

  const checkIds = new Set<string>();
  const outcomeIds = new Set<string>();
  const checkExpression = (expression: Expression | undefined, form: FormDefinition, where: string) => {
    for (const ref of collectRefs(expression)) {
      if (!referenceResolves(scope, ref, form.key))
        problems.push({ en: `${where}: unknown reference ${ref}`, ko: `${where}: 알 수 없는 참조 ${ref}` });
    }
    for (const param of collectParams(expression)) {
      if (study.parameters?.[param] === undefined)
        problems.push({
          en: `${where}: unknown parameter ${param}`,
          ko: `${where}: 알 수 없는 매개변수 ${param}`,
        });
    }
  };
  const scheduledVisits = (formKey: string) =>
    study.visits.filter((v) => v.forms.includes(formKey)).map((v) => v.key);

  for (const form of study.forms) {
    const allSections = [form.sections, ...(form.variants ?? []).map((v) => v.sections)].flat();
    for (const section of allSections) {
      checkExpression(section.showWhen, form, `${form.key}.${section.key}`);
      for (const item of section.items) {
        const where = `${form.key}.${item.key}`;
        checkExpression(item.showWhen, form, where);
        checkExpression(item.requiredWhen, form, where);
        checkExpression(item.derive, form, where);
      }
    }
    for (const check of form.checks ?? []) {
      if (checkIds.has(check.id))
        problems.push({ en: `duplicate check id ${check.id}`, ko: `중복된 검사 id ${check.id}` });
      checkIds.add(check.id);
      checkExpression(check.when, form, `check ${check.id}`);
      for (const visitKey of scheduledVisits(form.key)) {
        if (!appliesToVisit(check.visits, visitKey)) continue;
        const keys = scope.atVisit.get(`${visitKey}.${form.key}`);
        if (!keys?.get(check.item))
          problems.push({
            en: `check ${check.id}: no item ${check.item} in ${visitKey}`,
            ko: `검사 ${check.id}: 방문 ${visitKey}에 없는 항목 ${check.item}`,
          });
      }
    }
    for (const outcome of form.outcomes ?? []) {
      if (outcomeIds.has(outcome.id))
        problems.push({ en: `duplicate outcome id ${outcome.id}`, ko: `중복된 결과 id ${outcome.id}` });
      outcomeIds.add(outcome.id);
      checkExpression(outcome.when, form, `outcome ${outcome.id}`);
      if (outcome.target && !visits.get(outcome.target.visit)?.includes(outcome.target.form)) {
        problems.push({
          en: `outcome ${outcome.id}: target form not in target visit`,
          ko: `결과 ${outcome.id}: 대상 양식이 대상 방문에 없습니다`,
        });
      }
    }
  }
  // Status rules look at the whole subject: every reference names visit, form and item.
  for (const [rule, expression] of Object.entries(study.subjectStatus ?? {})) {
    for (const reference of collectRefs(expression)) {
      if (!referenceResolves(scope, reference, undefined)) {
        problems.push({
          en: `subjectStatus.${rule}: reference ${reference} must name a visit, form and item`,
          ko: `subjectStatus.${rule}: 참조 ${reference} — 방문, 양식, 항목을 모두 지정해야 합니다`,
        });
      }
    }
  }
  problems.push(...roleProblems(study));
  return problems;
}

/** The groups of a randomization list (the server's permuted blocks and imported lists). */
export const RANDOMIZATION_GROUPS = ['treatment', 'control'] as const;

/**
 * The roles name what exists, of the types the application reads. A role with a visit reads the form
 * as laid out there; one without reads the form at whatever visit it appears, so its items may sit in
 * any layout (default or variant).
 */
function roleProblems(study: StudyShape): ProblemText[] {
  const roles = study.roles;
  if (!roles) return [];
  // The item types each field reads.
  const fields = studyRoleFields;
  const problems: ProblemText[] = [];
  const layoutsOf = (role: string, formKey: string, visitKey?: string): SectionDefinition[][] => {
    const form = study.forms.find((entry) => entry.key === formKey);
    if (!form) {
      problems.push({
        en: `roles.${role}: unknown form ${formKey}`,
        ko: `roles.${role}: 알 수 없는 양식 ${formKey}`,
      });
      return [];
    }
    if (visitKey === undefined) return [form.sections, ...(form.variants ?? []).map((v) => v.sections)];
    if (!study.visits.find((visit) => visit.key === visitKey)?.forms.includes(formKey)) {
      problems.push({
        en: `roles.${role}: visit ${visitKey} has no form ${formKey}`,
        ko: `roles.${role}: 방문 ${visitKey}에 없는 양식 ${formKey}`,
      });
      return [];
    }
    return [sectionsForVisit(form, visitKey)];
  };
  /** The item in the layouts (outside repeating groups, or in the group `rows`), of one of `types`. */
  const expectItem = (
    role: string,
    layouts: SectionDefinition[][],
    itemKey: string,
    types: readonly ItemType[] | null,
    rows?: string,
  ): ItemDefinition | undefined => {
    if (layouts.length === 0) return undefined;
    const items = layouts
      .flat()
      .filter((section) => section.repeating?.key === rows)
      .flatMap((section) => section.items)
      .filter((item) => item.key === itemKey);
    if (items.length === 0)
      problems.push({
        en: `roles.${role}: unknown item ${itemKey}`,
        ko: `roles.${role}: 알 수 없는 항목 ${itemKey}`,
      });
    else if (types && items.some((item) => !types.includes(item.type))) {
      problems.push({
        en: `roles.${role}: item ${itemKey} must be ${types.join(' or ')}`,
        ko: `roles.${role}: 항목 ${itemKey} — 필요한 유형: ${types.join(' 또는 ')}`,
      });
    }
    return items[0];
  };
  /** The choice item's code list holds each of `codes` (the codes the application reads). */
  const expectCodes = (role: string, item: ItemDefinition, codes: readonly string[]): void => {
    const listed = study.codeLists.find((list) => list.key === item.codeList)?.codes ?? [];
    for (const code of codes) {
      if (!listed.some((entry) => entry.code === code)) {
        problems.push({
          en: `roles.${role}: ${item.key} has no code ${code}`,
          ko: `roles.${role}: ${item.key}에 없는 코드 ${code}`,
        });
      }
    }
  };
  /** A list role names each item once: a measure or event counted twice would be shown twice. */
  const repeatedKeys = (role: string, itemKeys: string[]): ProblemText[] =>
    [...new Set(itemKeys.filter((key, index) => itemKeys.indexOf(key) !== index))].map((key) => ({
      en: `roles.${role}: item ${key} is listed twice`,
      ko: `roles.${role}: 항목 ${key}이(가) 두 번 나옵니다`,
    }));

  if (roles.registration) {
    const role = roles.registration;
    const layouts = layoutsOf('registration', role.form, role.visit);
    expectItem('registration', layouts, role.consentDate, fields.registration.consentDate.types);
    for (const field of ['initials', 'screeningNumber'] as const) {
      const itemKey = role[field];
      if (itemKey !== undefined)
        expectItem('registration', layouts, itemKey, fields.registration[field].types);
    }
  }
  if (roles.demographics) {
    const role = roles.demographics;
    const layouts = layoutsOf('demographics', role.form, role.visit);
    const sex = expectItem('demographics', layouts, role.sex, fields.demographics.sex.types);
    if (sex) expectCodes('demographics', sex, [role.femaleCode, role.maleCode]);
    expectItem('demographics', layouts, role.age, fields.demographics.age.types);
  }
  if (roles.randomization) {
    const role = roles.randomization;
    const layouts = layoutsOf('randomization', role.form, role.visit);
    const eligible = expectItem('randomization', layouts, role.eligible, fields.randomization.eligible.types);
    if (eligible && eligible.derive === undefined) {
      problems.push({
        en: `roles.randomization: ${role.eligible} must be derived (the study's rule)`,
        ko: `roles.randomization: ${role.eligible} — 파생 항목이어야 합니다(시험의 규칙)`,
      });
    }
    expectItem('randomization', layouts, role.assignmentDate, fields.randomization.assignmentDate.types);
    expectItem('randomization', layouts, role.number, fields.randomization.number.types);
    const group = expectItem('randomization', layouts, role.group, fields.randomization.group.types);
    if (group?.type === 'singleChoice') expectCodes('randomization', group, RANDOMIZATION_GROUPS);
  }
  if (roles.signing) {
    const role = roles.signing;
    const layouts = layoutsOf('signing', role.form, role.visit);
    for (const field of ['signatureDate', 'signerName'] as const) {
      const itemKey = role[field];
      if (itemKey !== undefined) expectItem('signing', layouts, itemKey, fields.signing[field].types);
    }
  }
  if (roles.adverseEvents) {
    const role = roles.adverseEvents;
    const layouts = layoutsOf('adverseEvents', role.form, role.visit);
    if (layouts.length > 0 && !layouts.flat().some((section) => section.repeating?.key === role.rows)) {
      problems.push({
        en: `roles.adverseEvents: ${role.rows} is not a repeating group of ${role.form}`,
        ko: `roles.adverseEvents: ${role.rows} — ${role.form}의 반복 그룹이 아닙니다`,
      });
    } else {
      // Its item fields are the group's columns (studyRoleFields; the designer offers them the same way).
      for (const [field, entry] of Object.entries(fields.adverseEvents)) {
        if (entry.kind !== 'item') continue;
        const itemKey = role[field as keyof typeof role];
        if (itemKey !== undefined) expectItem('adverseEvents', layouts, itemKey, entry.types, role.rows);
      }
    }
  }
  if (roles.medications) {
    const role = roles.medications;
    const layouts = layoutsOf('medications', role.form, role.visit);
    if (layouts.length > 0 && !layouts.flat().some((section) => section.repeating?.key === role.rows)) {
      problems.push({
        en: `roles.medications: ${role.rows} is not a repeating group of ${role.form}`,
        ko: `roles.medications: ${role.rows} — ${role.form}의 반복 그룹이 아닙니다`,
      });
    } else {
      expectItem('medications', layouts, role.name, fields.medications.name.types, role.rows);
    }
  }
  if (roles.endOfStudy) {
    const role = roles.endOfStudy;
    const layouts = layoutsOf('endOfStudy', role.form, role.visit);
    for (const field of ['screeningFailureReason', 'dropoutReason'] as const)
      expectItem('endOfStudy', layouts, role[field], fields.endOfStudy[field].types);
  }
  if (roles.eligibility) {
    const role = roles.eligibility;
    const layouts = layoutsOf('eligibility', role.form);
    expectItem('eligibility', layouts, role.decision, fields.eligibility.decision.types);
    // The criteria are read from the form's default layout (`visit-facts.ts`).
    for (const sectionKey of [role.inclusionSection, role.exclusionSection]) {
      const section = layouts[0]?.find((entry) => entry.key === sectionKey);
      if (layouts.length > 0 && !section)
        problems.push({
          en: `roles.eligibility: unknown section ${sectionKey}`,
          ko: `roles.eligibility: 알 수 없는 섹션 ${sectionKey}`,
        });
      if (section?.items.some((item) => item.type !== 'yesNo')) {
        problems.push({
          en: `roles.eligibility: the criteria of ${sectionKey} must be yesNo items`,
          ko: `roles.eligibility: 섹션 ${sectionKey}의 기준은 yesNo 항목이어야 합니다`,
        });
      }
    }
  }
  if (roles.treatmentApplication) {
    const role = roles.treatmentApplication;
    const layouts = layoutsOf('treatmentApplication', role.form, role.visit);
    expectItem('treatmentApplication', layouts, role.applied, fields.treatmentApplication.applied.types);
    expectItem('treatmentApplication', layouts, role.date, fields.treatmentApplication.date.types);
  }
  if (roles.pregnancyTest) {
    const role = roles.pregnancyTest;
    const layouts = layoutsOf('pregnancyTest', role.form);
    for (const field of ['childbearingPotential', 'result'] as const)
      expectItem('pregnancyTest', layouts, role[field], fields.pregnancyTest[field].types);
  }
  if (roles.labPanel) {
    const layouts = layoutsOf('labPanel', roles.labPanel.form);
    expectItem('labPanel', layouts, roles.labPanel.specimenDate, fields.labPanel.specimenDate.types);
  }
  if (roles.audiogram) {
    layoutsOf('audiogram', roles.audiogram.form);
    const ear = roles.audiogram.treatedEar;
    if (ear) {
      const layouts = layoutsOf('audiogram', ear.form, ear.visit);
      const item = expectItem('audiogram', layouts, ear.item, fields.audiogram.treatedEar.fields.item.types);
      if (item?.type === 'singleChoice') expectCodes('audiogram', item, [ear.rightCode, ear.leftCode]);
    }
  }
  if (roles.healing) {
    const layouts = layoutsOf('healing', roles.healing.form);
    expectItem('healing', layouts, roles.healing.outcome, fields.healing.outcome.types);
  }
  if (roles.keyMeasures) {
    const layouts = layoutsOf('keyMeasures', roles.keyMeasures.form);
    for (const itemKey of new Set(roles.keyMeasures.items))
      expectItem('keyMeasures', layouts, itemKey, fields.keyMeasures.items.types);
    problems.push(...repeatedKeys('keyMeasures', roles.keyMeasures.items));
  }
  if (roles.eventsOfInterest) {
    const layouts = layoutsOf('eventsOfInterest', roles.eventsOfInterest.form);
    for (const itemKey of new Set(roles.eventsOfInterest.items))
      expectItem('eventsOfInterest', layouts, itemKey, fields.eventsOfInterest.items.types);
    problems.push(...repeatedKeys('eventsOfInterest', roles.eventsOfInterest.items));
  }
  return problems;
}

/**
 * Ranges are for numbers, and read hardMin ≤ min ≤ max ≤ hardMax: a soft range reaching past a hard
 * limit would promise a query for a value the save refuses.
 */
function rangeProblems(item: ItemDefinition, where: string): ProblemText[] {
  const bounds = [item.hardMin, item.min, item.max, item.hardMax];
  if (bounds.every((bound) => bound === undefined)) return [];
  if (item.type !== 'integer' && item.type !== 'decimal')
    return [
      {
        en: `${where}: range on a ${item.type} item`,
        ko: `${where}: ${item.type} 항목에는 범위를 둘 수 없습니다`,
      },
    ];
  const given = bounds.filter((bound) => bound !== undefined);
  return given.every((bound, index) => index === 0 || (given[index - 1] as number) <= bound)
    ? []
    : [
        {
          en: `${where}: range out of order (hardMin ≤ min ≤ max ≤ hardMax)`,
          ko: `${where}: 범위의 순서가 맞지 않습니다(hardMin ≤ min ≤ max ≤ hardMax)`,
        },
      ];
}

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * A definition's shape without the cross-reference checks: a design draft in the middle of its edits
 * (an expression naming an item not yet added) has this shape, and two such drafts can be compared.
 */
export const studyDefinitionShapeSchema = baseStudyDefinitionSchema;

/** The whole study definition, including cross-reference checks (known forms, items, references, code lists). */
export const studyDefinitionSchema = baseStudyDefinitionSchema.superRefine((study, ctx) => {
  // The Korean words ride in the issue's params (definition uploads list them in the user's language).
  for (const problem of findDefinitionProblemTexts(study))
    ctx.addIssue({ code: 'custom', message: problem.en, params: { ko: problem.ko } });
});
export type StudyDefinition = z.infer<typeof studyDefinitionSchema>;
