import type { FormValues, JsonValue, SubjectData } from '../model/json-value.ts';
import type { LocalizedText } from '../model/localized-text.ts';
import type { OutcomeKind, SectionDefinition, Severity, StudyDefinition } from '../model/study-definition.ts';
import { type ExpressionContext, isEmptyValue, isRecord } from './evaluate-expression.ts';
import { builtInMessages } from './messages.ts';
import {
  type FormLayout,
  getFormLayout,
  getStudyIndex,
  type ItemRules,
  layoutsForData,
  type StudyIndex,
} from './study-index.ts';

// One pass over a subject: derived values first (they feed conditions and checks across forms and visits),
// then per form the visibility of sections and items, required-but-missing items, check results and
// routing outcomes. Pure: the caller passes the data and today's date, nothing is read from elsewhere.

export interface EvaluateOptions {
  /** Today's date "YYYY-MM-DD" in the study's time zone, supplied by the caller. */
  today: string;
  /**
   * The forms whose evaluation the caller uses (all when absent). Derivations still run over every
   * form, as derived values feed conditions and checks across forms and visits; the forms left out
   * are only not walked for their sections, missing items, checks and outcomes. A form read needs
   * its own form (it walked all 61 forms of the subject to answer one); a save, the one it saves
   * and the subject's other saved forms (issue 12).
   */
  forms?: (visitKey: string, formKey: string) => boolean;
  /**
   * Whether the forms' section and item states are kept (`FormEvaluation.sections`; default true).
   * They are still worked out, since missing items and checks follow from them, but a caller that
   * never reads them (the server: the browser works them out itself as one types) spares keeping
   * them in a record per section and row of every walked form (issue 12: ~40 forms on every save).
   */
  itemStates?: boolean;
}

export interface ItemState {
  visible: boolean;
  /** Visible, not in a "not done" section, and required (always or by its condition). */
  required: boolean;
  /** Disabled because its section is marked "not done". */
  disabled: boolean;
  /** Derived or system-filled: shown, never typed. */
  readOnly: boolean;
}

export interface SectionState {
  key: string;
  visible: boolean;
  notDone: boolean;
  /** States of the section's items (for a repeating group: the column defaults, before row conditions). */
  items: Record<string, ItemState>;
  /** For a repeating group: the item states of each row. */
  rows?: Record<string, ItemState>[] | undefined;
}

interface ItemPathParts {
  visitKey: string;
  formKey: string;
  itemKey: string;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
  /** "v1.medicalHistory.histories[0].endDate" */
  path: string;
}

export interface CheckResult extends ItemPathParts {
  checkId: string;
  severity: Severity;
  message: LocalizedText;
}

export interface MissingItem extends ItemPathParts {
  sectionKey: string;
}

export interface OutcomeResult {
  outcomeId: string;
  kind: OutcomeKind;
  visitKey: string;
  formKey: string;
  target?: { visit: string; form: string } | undefined;
  message: LocalizedText;
}

export interface FormEvaluation {
  visitKey: string;
  formKey: string;
  /** The stored values with derived values filled in. */
  values: FormValues;
  /** Only the derived items, as computed now. */
  derived: FormValues;
  /** The section and item states; empty when the caller said it does not read them (`itemStates`). */
  sections: SectionState[];
  missing: MissingItem[];
  checks: CheckResult[];
  outcomes: OutcomeResult[];
}

export interface SubjectEvaluation {
  /** The subject's data with every derived value filled in. */
  data: SubjectData;
  forms: FormEvaluation[];
  checks: CheckResult[];
  outcomes: OutcomeResult[];
}

/** Derived values may feed one another across forms; a few passes settle any order of definition. */
const MAX_DERIVATION_PASSES = 3;

function ownValue(values: unknown, key: string): JsonValue {
  if (!isRecord(values) || !Object.hasOwn(values, key)) return null;
  return (values[key] ?? null) as JsonValue;
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** A working copy of the forms' values (scheduled and unscheduled visits), so derivations never mutate the caller's data. */
function copyFormData(layouts: FormLayout[], data: unknown): SubjectData {
  const copy: SubjectData = {};
  for (const layout of layouts) {
    const visitData =
      isRecord(data) && Object.hasOwn(data, layout.visitKey) ? data[layout.visitKey] : undefined;
    const values =
      isRecord(visitData) && Object.hasOwn(visitData, layout.form.key)
        ? visitData[layout.form.key]
        : undefined;
    if (!isRecord(values)) continue;
    copy[layout.visitKey] ??= {};
    (copy[layout.visitKey] as Record<string, FormValues>)[layout.form.key] = { ...(values as FormValues) };
  }
  return copy;
}

/**
 * The context expressions of a form are evaluated in. `row` is always present (undefined outside a
 * repeating group) so that every context has the same shape, which keeps property reads fast.
 */
function contextFor(
  index: StudyIndex,
  data: SubjectData,
  layout: FormLayout,
  today: string,
): ExpressionContext {
  return {
    data,
    visitKey: layout.visitKey,
    formKey: layout.form.key,
    row: undefined,
    today,
    params: index.params,
  };
}

function applyDerivations(index: StudyIndex, layouts: FormLayout[], data: SubjectData, today: string): void {
  for (let pass = 0; pass < MAX_DERIVATION_PASSES; pass += 1) {
    let changed = false;
    for (const layout of layouts) {
      const { derivations } = layout.rules;
      if (derivations.length === 0) continue;
      const context = contextFor(index, data, layout, today);
      for (const { item, derive, notDoneItem } of derivations) {
        const formValues = data[layout.visitKey]?.[layout.form.key];
        // A section marked "not done" has no results to derive from, even if stale values remain.
        const notDone = notDoneItem !== undefined && ownValue(formValues, notDoneItem) === true;
        const value = notDone ? null : derive(context);
        if (formValues === undefined) {
          // Forms nobody has opened stay absent unless a derivation actually yields something.
          if (value === null) continue;
          data[layout.visitKey] ??= {};
          (data[layout.visitKey] as Record<string, FormValues>)[layout.form.key] = { [item.key]: value };
          changed = true;
        } else if (!Object.hasOwn(formValues, item.key)) {
          formValues[item.key] = value;
          if (value !== null) changed = true;
        } else if (!sameValue(ownValue(formValues, item.key), value)) {
          formValues[item.key] = value;
          changed = true;
        }
      }
    }
    if (!changed) return;
  }
}

/** One occurrence of a checked item (see ItemRules.checked): in the form, or in one row of its group. */
interface ItemInstance {
  rules: ItemRules;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
  value: JsonValue;
  state: ItemState;
  context: ExpressionContext;
}

function pathOf(
  visitKey: string,
  formKey: string,
  itemKey: string,
  groupKey?: string,
  rowIndex?: number,
): string {
  const row = groupKey === undefined ? '' : `${groupKey}[${rowIndex}].`;
  return `${visitKey}.${formKey}.${row}${itemKey}`;
}

function pathParts(layout: FormLayout, itemKey: string, groupKey?: string, rowIndex?: number): ItemPathParts {
  const parts: ItemPathParts = {
    visitKey: layout.visitKey,
    formKey: layout.form.key,
    itemKey,
    path: pathOf(layout.visitKey, layout.form.key, itemKey, groupKey, rowIndex),
  };
  if (groupKey !== undefined) {
    parts.groupKey = groupKey;
    parts.rowIndex = rowIndex;
  }
  return parts;
}

function itemState(
  rules: ItemRules,
  section: SectionDefinition,
  sectionVisible: boolean,
  notDone: boolean,
  context: ExpressionContext,
): ItemState {
  const { item } = rules;
  const visible = sectionVisible && (rules.showWhen === undefined || rules.showWhen(context) === true);
  const disabled = notDone && item.key !== section.notDoneItem;
  const required =
    visible &&
    !disabled &&
    item.derive === undefined &&
    (item.required === true || (rules.requiredWhen !== undefined && rules.requiredWhen(context) === true));
  return { visible, required, disabled, readOnly: rules.readOnly };
}

function addBuiltInChecks(
  checks: CheckResult[],
  layout: FormLayout,
  instance: ItemInstance,
  today: string,
): void {
  const { value } = instance;
  const { item } = instance.rules;
  // A value past the hard limits is refused, and only that is said: its soft range check would add
  // nothing but a second message on the same item.
  if (
    typeof value === 'number' &&
    ((item.hardMin !== undefined && value < item.hardMin) ||
      (item.hardMax !== undefined && value > item.hardMax))
  ) {
    checks.push({
      ...pathParts(layout, item.key, instance.groupKey, instance.rowIndex),
      checkId: `${layout.form.key}.${item.key}.limit`,
      severity: 'hard',
      message: builtInMessages.outsideLimits(item.hardMin, item.hardMax),
    });
  } else if (
    typeof value === 'number' &&
    ((item.min !== undefined && value < item.min) || (item.max !== undefined && value > item.max))
  ) {
    checks.push({
      ...pathParts(layout, item.key, instance.groupKey, instance.rowIndex),
      checkId: `${layout.form.key}.${item.key}.range`,
      severity: item.rangeSeverity ?? 'query',
      message: builtInMessages.outOfRange(item.min, item.max),
    });
  }
  if (item.notFuture === true && typeof value === 'string' && value > today) {
    checks.push({
      ...pathParts(layout, item.key, instance.groupKey, instance.rowIndex),
      checkId: `${layout.form.key}.${item.key}.future`,
      severity: 'hard',
      message: builtInMessages.futureDate,
    });
  }
}

/** What evaluating one form gathers while it walks the form's sections and rows. */
interface FormWalk {
  layout: FormLayout;
  missing: MissingItem[];
  /**
   * Instances of the checked items by item key, keys in the order first met: checks run on them once the
   * walk is done, and built-in check results come out in this order.
   */
  instances: Map<string, ItemInstance[]>;
}

/** Notes one occurrence of an item: missing when required and empty, kept for the checks when checked. */
function addInstance(
  walk: FormWalk,
  rules: ItemRules,
  section: SectionDefinition,
  values: FormValues,
  state: ItemState,
  context: ExpressionContext,
  groupKey?: string,
  rowIndex?: number,
): void {
  // Only required and checked items need their value: the rest of the form is read by expressions only.
  if (!state.required && !rules.checked) return;
  const { item } = rules;
  const value = ownValue(values, item.key);
  if (state.required && isEmptyValue(value)) {
    walk.missing.push({
      ...pathParts(walk.layout, item.key, groupKey, rowIndex),
      sectionKey: section.key,
    });
  }
  if (!rules.checked) return;
  const instance: ItemInstance = { rules, value, state, context };
  if (groupKey !== undefined) {
    instance.groupKey = groupKey;
    instance.rowIndex = rowIndex;
  }
  const list = walk.instances.get(item.key);
  if (list) list.push(instance);
  else walk.instances.set(item.key, [instance]);
}

function evaluateLayout(
  index: StudyIndex,
  layout: FormLayout,
  data: SubjectData,
  today: string,
  keepStates: boolean,
): FormEvaluation {
  const values: FormValues = data[layout.visitKey]?.[layout.form.key] ?? {};
  const context = contextFor(index, data, layout, today);
  const sections: SectionState[] = [];
  const walk: FormWalk = { layout, missing: [], instances: new Map() };

  for (const sectionRules of layout.rules.sections) {
    const { section } = sectionRules;
    const visible = sectionRules.showWhen === undefined || sectionRules.showWhen(context) === true;
    const notDone = section.notDoneItem !== undefined && ownValue(values, section.notDoneItem) === true;
    // The states are kept only when asked for (EvaluateOptions.itemStates); undefined otherwise.
    const items: Record<string, ItemState> | undefined = keepStates ? {} : undefined;
    const state: SectionState | undefined = items && { key: section.key, visible, notDone, items };
    if (state) sections.push(state);
    const groupKey = section.repeating?.key;
    if (groupKey === undefined) {
      for (const itemRules of sectionRules.items) {
        const itemStateNow = itemState(itemRules, section, visible, notDone, context);
        if (items) items[itemRules.item.key] = itemStateNow;
        addInstance(walk, itemRules, section, values, itemStateNow, context);
      }
      continue;
    }
    if (items) {
      for (const itemRules of sectionRules.items)
        items[itemRules.item.key] = itemState(itemRules, section, visible, notDone, context);
    }
    const stored = ownValue(values, groupKey);
    const rows = Array.isArray(stored) ? stored : [];
    const rowStatesList: Record<string, ItemState>[] = [];
    if (state) state.rows = rowStatesList;
    if (visible && !notDone && section.repeating?.rowsRequired === true && rows.length === 0) {
      walk.missing.push({ ...pathParts(layout, groupKey), sectionKey: section.key });
    }
    rows.forEach((rawRow, rowIndex) => {
      const row: FormValues = isRecord(rawRow) ? (rawRow as FormValues) : {};
      const rowContext: ExpressionContext = { ...context, row };
      const rowStates: Record<string, ItemState> | undefined = state ? {} : undefined;
      if (rowStates) rowStatesList.push(rowStates);
      for (const itemRules of sectionRules.items) {
        const rowState = itemState(itemRules, section, visible, notDone, rowContext);
        if (rowStates) rowStates[itemRules.item.key] = rowState;
        addInstance(walk, itemRules, section, row, rowState, rowContext, groupKey, rowIndex);
      }
    });
  }

  const checks: CheckResult[] = [];
  for (const list of walk.instances.values()) {
    for (const instance of list) {
      if (instance.rules.hasBuiltInChecks && instance.state.visible && !instance.state.disabled)
        addBuiltInChecks(checks, layout, instance, today);
    }
  }
  for (const { check, when } of layout.rules.checks) {
    for (const instance of walk.instances.get(check.item) ?? []) {
      if (!instance.state.visible || instance.state.disabled) continue;
      if (when(instance.context) !== true) continue;
      checks.push({
        ...pathParts(layout, check.item, instance.groupKey, instance.rowIndex),
        checkId: check.id,
        severity: check.severity,
        message: check.message,
      });
    }
  }

  const outcomes: OutcomeResult[] = [];
  for (const { outcome, when } of layout.rules.outcomes) {
    if (when(context) !== true) continue;
    outcomes.push({
      outcomeId: outcome.id,
      kind: outcome.kind,
      visitKey: layout.visitKey,
      formKey: layout.form.key,
      target: outcome.target,
      message: outcome.message,
    });
  }

  return {
    visitKey: layout.visitKey,
    formKey: layout.form.key,
    values,
    derived: derivedValuesOf(layout, values),
    sections,
    missing: walk.missing,
    checks,
    outcomes,
  };
}

/** A form's derived items with their values in `values` (null where there is none). */
export function derivedValuesOf(layout: FormLayout, values: FormValues): FormValues {
  const derived: FormValues = {};
  for (const item of layout.derivedItems) derived[item.key] = ownValue(values, item.key);
  return derived;
}

/** Derived values for the whole subject (a working copy; the input is never modified). */
export function deriveSubjectData(
  definition: StudyDefinition,
  data: unknown,
  options: EvaluateOptions,
): SubjectData {
  const index = getStudyIndex(definition);
  const layouts = layoutsForData(definition, data);
  const working = copyFormData(layouts, data);
  applyDerivations(index, layouts, working, options.today);
  return working;
}

/**
 * Evaluates every form of every visit of the subject (or those `options.forms` accepts). Never
 * throws, whatever the data.
 */
export function evaluateSubject(
  definition: StudyDefinition,
  data: unknown,
  options: EvaluateOptions,
): SubjectEvaluation {
  const index = getStudyIndex(definition);
  const working = deriveSubjectData(definition, data, options);
  const wanted = options.forms;
  const layouts = layoutsForData(definition, working);
  const walked = wanted ? layouts.filter((layout) => wanted(layout.visitKey, layout.form.key)) : layouts;
  const keepStates = options.itemStates ?? true;
  const forms = walked.map((layout) => evaluateLayout(index, layout, working, options.today, keepStates));
  return {
    data: working,
    forms,
    checks: forms.flatMap((f) => f.checks),
    outcomes: forms.flatMap((f) => f.outcomes),
  };
}

/**
 * Evaluates one form (the browser's form screen, as one types): derivations still run over the
 * whole subject because checks look across forms and visits. Undefined when the visit does not
 * have the form.
 */
export function evaluateForm(
  definition: StudyDefinition,
  data: unknown,
  visitKey: string,
  formKey: string,
  options: EvaluateOptions,
): FormEvaluation | undefined {
  const layout = getFormLayout(definition, visitKey, formKey);
  if (!layout) return undefined;
  const index = getStudyIndex(definition);
  return evaluateLayout(
    index,
    layout,
    deriveSubjectData(definition, data, options),
    options.today,
    options.itemStates ?? true,
  );
}

/** The evaluation of one form within a subject evaluation. */
export function findFormEvaluation(
  evaluation: SubjectEvaluation,
  visitKey: string,
  formKey: string,
): FormEvaluation | undefined {
  return evaluation.forms.find((f) => f.visitKey === visitKey && f.formKey === formKey);
}

/** Check results of one severity (for example `hard` ones refuse a save). */
export function checksWithSeverity(checks: CheckResult[], severity: Severity): CheckResult[] {
  return checks.filter((c) => c.severity === severity);
}
