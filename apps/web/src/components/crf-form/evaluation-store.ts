import {
  type CheckResult,
  evaluateForm,
  type FormEvaluation,
  getFormLayout,
  type ItemState,
  type JsonValue,
  type OutcomeResult,
  type StudyDefinition,
} from '@cdms/study';
import type { ItemAddress, Listener, SubjectStore } from './subject-store.ts';

// The rules engine's view of one form, recomputed a moment after the values stop changing (one evaluation
// per pause in typing, not one per keystroke). Each item, section and the outcome list get a small "view";
// a view equal to the previous one keeps its identity, so only the items whose state, messages or derived
// value really changed re-render.

/** How long after the last change the engine runs again. Short enough that warnings follow typing. */
export const EVALUATION_DELAY_MS = 120;

export interface ItemView {
  state: ItemState;
  /** Check results attached to this item (this row, inside a repeating group). */
  checks: CheckResult[];
  /** The computed value of a derived item; null otherwise. */
  derived: JsonValue;
}

export interface SectionView {
  visible: boolean;
  notDone: boolean;
  /** A repeating group that needs at least one row and has none. */
  rowsMissing: boolean;
}

export interface EvaluationStore {
  subscribe: (listener: Listener) => () => void;
  getEvaluation: () => FormEvaluation | undefined;
  getItemView: (address: ItemAddress) => ItemView | undefined;
  getSectionView: (sectionKey: string) => SectionView | undefined;
  getOutcomes: () => OutcomeResult[];
  /** Follows the subject store's changes until the returned function is called (an effect's cleanup). */
  connect: () => () => void;
  /** Runs the engine now instead of after the delay. */
  flush: () => void;
}

export interface EvaluationStoreOptions {
  definition: StudyDefinition;
  visitKey: string;
  formKey: string;
  subjectStore: SubjectStore;
  today: string;
  delayMs?: number;
  onEvaluate?: ((evaluation: FormEvaluation) => void) | undefined;
}

export function itemPath({ itemKey, groupKey, rowIndex }: ItemAddress): string {
  return groupKey === undefined ? itemKey : `${groupKey}[${rowIndex ?? ''}].${itemKey}`;
}

/** Keeps the previous object when the new one has the same content (the views are small JSON). */
function reuse<T>(previous: T | undefined, next: T): T {
  return previous !== undefined && JSON.stringify(previous) === JSON.stringify(next) ? previous : next;
}

const NO_OUTCOMES: OutcomeResult[] = [];

export function createEvaluationStore(options: EvaluationStoreOptions): EvaluationStore {
  const { definition, visitKey, formKey, subjectStore, today, onEvaluate } = options;
  const delayMs = options.delayMs ?? EVALUATION_DELAY_MS;
  const listeners = new Set<Listener>();
  let evaluation: FormEvaluation | undefined;
  let itemViews = new Map<string, ItemView>();
  let sectionViews = new Map<string, SectionView>();
  let outcomes = NO_OUTCOMES;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const groupKeys = new Map(
    (getFormLayout(definition, visitKey, formKey)?.sections ?? []).map((s) => [s.key, s.repeating?.key]),
  );

  const evaluate = (report: boolean) => {
    timer = undefined;
    evaluation = evaluateForm(definition, subjectStore.getData(), visitKey, formKey, { today });
    if (!evaluation) return;
    const checksByPath = new Map<string, CheckResult[]>();
    for (const check of evaluation.checks) {
      const path = itemPath(check);
      checksByPath.set(path, [...(checksByPath.get(path) ?? []), check]);
    }
    const nextItems = new Map<string, ItemView>();
    const nextSections = new Map<string, SectionView>();
    const putItem = (address: ItemAddress, state: ItemState) => {
      const path = itemPath(address);
      const derived =
        address.groupKey === undefined && Object.hasOwn(evaluation?.derived ?? {}, address.itemKey)
          ? (evaluation?.derived[address.itemKey] ?? null)
          : null;
      nextItems.set(
        path,
        reuse(itemViews.get(path), { state, checks: checksByPath.get(path) ?? [], derived }),
      );
    };
    for (const section of evaluation.sections) {
      const groupKey = groupKeys.get(section.key);
      const rowsMissing =
        groupKey !== undefined &&
        evaluation.missing.some((m) => m.itemKey === groupKey && m.rowIndex === undefined);
      nextSections.set(
        section.key,
        reuse(sectionViews.get(section.key), {
          visible: section.visible,
          notDone: section.notDone,
          rowsMissing,
        }),
      );
      for (const [itemKey, state] of Object.entries(section.items)) {
        // For a repeating group these are the column defaults, used until a new row has been evaluated.
        putItem({ itemKey, groupKey }, state);
      }
      section.rows?.forEach((row, rowIndex) => {
        for (const [itemKey, state] of Object.entries(row)) putItem({ itemKey, groupKey, rowIndex }, state);
      });
    }
    itemViews = nextItems;
    sectionViews = nextSections;
    outcomes = reuse(outcomes, evaluation.outcomes.length > 0 ? evaluation.outcomes : NO_OUTCOMES);
    for (const listener of listeners) listener();
    // Not reported during the first (render-time) evaluation: a parent must not update while it renders.
    if (report) onEvaluate?.(evaluation);
  };

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => evaluate(true), delayMs);
  };
  // The first evaluation is synchronous, so the first render already knows what is hidden or required.
  evaluate(false);

  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getEvaluation: () => evaluation,
    getItemView: (address) =>
      itemViews.get(itemPath(address)) ??
      itemViews.get(itemPath({ itemKey: address.itemKey, groupKey: address.groupKey })),
    getSectionView: (sectionKey) => sectionViews.get(sectionKey),
    getOutcomes: () => outcomes,
    connect: () => {
      const unsubscribe = subjectStore.subscribe(schedule);
      // Values may have changed since the render-time evaluation; this one is also the first reported.
      evaluate(true);
      return () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        unsubscribe();
      };
    },
    flush: () => {
      if (timer !== undefined) clearTimeout(timer);
      evaluate(false);
    },
  };
}
