import type { StudyDefinition } from '../model/study-definition.ts';
import { isRecord, MAX_EXPRESSION_DEPTH } from './evaluate-expression.ts';
import { type FormLayout, layoutsForData } from './study-index.ts';

// Which forms of a subject a change to one form's values can give another evaluation (issue 12).
// A save evaluated every saved form of the subject (~40) to refresh their statuses and system
// queries, though a corrected heart rate changes only its own form and the few forms whose rules
// read it. The expressions are read once per layout for what they look at: the forms their
// references name, and whether they use today's date. Everything an evaluation reads comes through
// those two (evaluate-expression.ts: references are the only way to the data, `today` the only way
// to the date) besides the form's own values and the definition, which do not change under a save.

/** What one layout's rules read, worked out once per layout. */
interface LayoutReads {
  /** The forms the walk's expressions name (sections, items, checks, outcomes), its own included. */
  walk: ReadSet;
  /** The forms its derivations name. */
  derive: ReadSet;
}

interface ReadSet {
  forms: FormPairs;
  today: boolean;
}

/** (visit, form) pairs as forms by visit key: looked up without building a key string. */
type FormPairs = Map<string, Set<string>>;

function addPair(pairs: FormPairs, visitKey: string, formKey: string): void {
  const forms = pairs.get(visitKey);
  if (forms) forms.add(formKey);
  else pairs.set(visitKey, new Set([formKey]));
}

/** A set of (visit, form) pairs. */
export interface FormSet {
  has(visitKey: string, formKey: string): boolean;
}

/** An empty set of (visit, form) pairs to add to. */
export function createFormSet(): FormSet & { add(visitKey: string, formKey: string): void } {
  const pairs: FormPairs = new Map();
  return {
    add: (visitKey, formKey) => addPair(pairs, visitKey, formKey),
    has: (visitKey, formKey) => pairs.get(visitKey)?.has(formKey) === true,
  };
}

/**
 * Notes what an expression reads, in the same order of tests as the evaluator compiles it: a
 * reference of one part names the layout's own form (or the current row, which is in it), of two
 * parts a form of the same visit, of three a form of any visit. Deeper than the evaluator goes
 * (`MAX_EXPRESSION_DEPTH`) an expression evaluates to null, so it reads nothing there.
 */
function collectReads(expression: unknown, layout: FormLayout, into: ReadSet, depth = 0): void {
  if (depth > MAX_EXPRESSION_DEPTH || !isRecord(expression)) return;
  const ref = Object.hasOwn(expression, 'ref') ? expression.ref : undefined;
  if (typeof ref === 'string') {
    const parts = ref.split('.');
    if (parts.length === 1) addPair(into.forms, layout.visitKey, layout.form.key);
    else if (parts.length === 2) addPair(into.forms, layout.visitKey, parts[0] as string);
    else if (parts.length === 3) addPair(into.forms, parts[0] as string, parts[1] as string);
    return;
  }
  if (Object.hasOwn(expression, 'param') && typeof expression.param === 'string') return;
  if (Object.hasOwn(expression, 'op') && expression.op === 'today') into.today = true;
  const args = Object.hasOwn(expression, 'args') ? expression.args : undefined;
  if (Array.isArray(args)) for (const arg of args) collectReads(arg, layout, into, depth + 1);
}

const readsByLayout = new WeakMap<FormLayout, LayoutReads>();

function readsOf(layout: FormLayout): LayoutReads {
  const cached = readsByLayout.get(layout);
  if (cached) return cached;
  const walk: ReadSet = { forms: new Map(), today: false };
  // The walk reads the form's own values (required items, "not done", repeating rows) whatever its
  // expressions say. A built-in not-future check also compares with today, but it is a hard check:
  // it refuses the form's own save and is never stored, so it does not count here.
  addPair(walk.forms, layout.visitKey, layout.form.key);
  for (const section of layout.sections) {
    collectReads(section.showWhen, layout, walk);
    for (const item of section.items) {
      collectReads(item.showWhen, layout, walk);
      collectReads(item.requiredWhen, layout, walk);
    }
  }
  for (const check of layout.checks) collectReads(check.when, layout, walk);
  for (const outcome of layout.outcomes) collectReads(outcome.when, layout, walk);
  const derive: ReadSet = { forms: new Map(), today: false };
  for (const item of layout.derivedItems) collectReads(item.derive, layout, derive);
  // The "not done" box of a derived item's section is in the form itself.
  if (layout.derivedItems.length > 0) addPair(derive.forms, layout.visitKey, layout.form.key);
  const reads = { walk, derive };
  readsByLayout.set(layout, reads);
  return reads;
}

function readsAny(set: ReadSet, changed: FormSet): boolean {
  for (const [visitKey, forms] of set.forms) {
    for (const formKey of forms) if (changed.has(visitKey, formKey)) return true;
  }
  return false;
}

/** Results for the schedule (a subject without unscheduled visits), per changed form. */
const scheduleReach = new WeakMap<FormLayout[], Map<string, FormSet>>();

/**
 * The forms of the subject (those `evaluateSubject` walks for `data`) whose evaluation — sections,
 * missing items, checks other than not-future ones, outcomes — can differ once the values of
 * (visitKey, formKey) changed, or once the date moved on: the form itself; the forms whose derived
 * values follow from it, step by step, or from today; and every form whose rules read one of these
 * or today. Any other form evaluates exactly as it did before the change, on any later day.
 */
export function formsReachedByChange(
  definition: StudyDefinition,
  data: unknown,
  visitKey: string,
  formKey: string,
): FormSet {
  const layouts = layoutsForData(definition, data);
  const cacheKey = `${visitKey}\u0000${formKey}`;
  let cached = scheduleReach.get(layouts);
  const hit = cached?.get(cacheKey);
  if (hit) return hit;

  // The forms whose values may change: the form itself, then those deriving from changed ones.
  const changed = createFormSet();
  changed.add(visitKey, formKey);
  for (let grew = true; grew; ) {
    grew = false;
    for (const layout of layouts) {
      if (changed.has(layout.visitKey, layout.form.key)) continue;
      const { derive } = readsOf(layout);
      if (derive.today || readsAny(derive, changed)) {
        changed.add(layout.visitKey, layout.form.key);
        grew = true;
      }
    }
  }
  const result = createFormSet();
  for (const layout of layouts) {
    const { walk } = readsOf(layout);
    if (changed.has(layout.visitKey, layout.form.key) || walk.today || readsAny(walk, changed))
      result.add(layout.visitKey, layout.form.key);
  }
  // Only the schedule's array is the same from call to call: a subject with unscheduled visits gets
  // a list of its own each time, and is worked out afresh (a few dozen small set lookups).
  if (layouts === layoutsForData(definition, undefined)) {
    if (!cached) {
      cached = new Map();
      scheduleReach.set(layouts, cached);
    }
    cached.set(cacheKey, result);
  }
  return result;
}
