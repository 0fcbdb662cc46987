import type {
  ItemDefinition,
  JsonValue,
  Language,
  OutcomeResult,
  SectionDefinition,
  StudyDefinition,
} from '@cdms/study';
import type { TFunction } from 'i18next';
import { createContext, type ReactNode, use, useCallback, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { EvaluationStore, ItemView, SectionView } from './evaluation-store.ts';
import type { InputRefusals, Refusal } from './input-refusals.ts';
import type { ControlProps } from './item-controls.tsx';
import type { ItemAddress, SubjectStore } from './subject-store.ts';

// What every part of one rendered form shares. The value is created once per form (stable), so reading
// it never re-renders anything; components re-render through their own store subscriptions below.

export interface CrfFormContextValue {
  definition: StudyDefinition;
  visitKey: string;
  formKey: string;
  language: Language;
  readOnly: boolean;
  today: string;
  subjectStore: SubjectStore;
  evaluationStore: EvaluationStore;
  /** Messages from outside the rules engine (server queries, save errors) by item path. */
  itemNotes?: ReadonlyMap<string, readonly ItemNote[]> | undefined;
  /** Extra controls in each section's header (a comment link, say); `titleId`: the title's element id. */
  sectionActions?: ((section: SectionDefinition, titleId: string) => ReactNode) | undefined;
  /**
   * Extra controls beside each item's label outside repeating rows (a history button, say); `labelId`
   * is the label's element id, for an aria-describedby.
   */
  itemActions?: ((item: ItemDefinition, labelId: string) => ReactNode) | undefined;
  /** Where inputs report text they could not take as a value (the page refuses to save meanwhile). */
  refusals: InputRefusals;
  /**
   * The control of an item type the generic renderer does not draw itself (issue 19: the eardrum photo
   * and its tracing, which need the subject's address to upload and read photos). Undefined: the default.
   */
  itemControl?: ((props: ControlProps) => ReactNode) | undefined;
}

/**
 * A message shown under an item that the rules engine did not produce: a query opened on the server,
 * a save refused for this item. `path` keys are the renderer's item paths (`itemKey`, `group[0].itemKey`).
 */
export interface ItemNote {
  id: string;
  tone: 'warning' | 'query' | 'hard';
  /** Short label before the text ("Query · open"). */
  label: string;
  text: string;
  /**
   * The edit check a stored system query was raised by: while the note is shown, the check's live
   * message is not shown beside it a second time.
   */
  checkId?: string;
}

export const CrfFormContext = createContext<CrfFormContextValue | null>(null);

export function useCrfForm(): CrfFormContextValue {
  const value = use(CrfFormContext);
  if (!value) throw new Error('CRF form parts need a <CrfForm> above them.');
  return value;
}

/** One item's value; re-renders only when that value changes. */
export function useItemValue({ itemKey, groupKey, rowIndex }: ItemAddress): JsonValue {
  const { subjectStore, visitKey, formKey } = useCrfForm();
  const read = useCallback(
    () => subjectStore.getValue(visitKey, formKey, { itemKey, groupKey, rowIndex }),
    [subjectStore, visitKey, formKey, itemKey, groupKey, rowIndex],
  );
  return useSyncExternalStore(subjectStore.subscribe, read, read);
}

/** Writes one item's value. */
export function useSetItemValue({ itemKey, groupKey, rowIndex }: ItemAddress): (value: JsonValue) => void {
  const { subjectStore, visitKey, formKey } = useCrfForm();
  return useCallback(
    (value: JsonValue) => subjectStore.setValue(visitKey, formKey, { itemKey, groupKey, rowIndex }, value),
    [subjectStore, visitKey, formKey, itemKey, groupKey, rowIndex],
  );
}

/** Why an item's input refused its text, by item path; re-renders only when that changes. */
export function useRefusal(path: string): Refusal | null {
  const { refusals } = useCrfForm();
  const read = useCallback(
    () => refusals.list().find((entry) => entry.path === path)?.refusal ?? null,
    [refusals, path],
  );
  return useSyncExternalStore(refusals.subscribe, read, read);
}

/** The number of rows of a repeating group (not their content: rows read their own values). */
export function useRowCount(groupKey: string): number {
  const { subjectStore, visitKey, formKey } = useCrfForm();
  const read = useCallback(
    () => subjectStore.getRows(visitKey, formKey, groupKey).length,
    [subjectStore, visitKey, formKey, groupKey],
  );
  return useSyncExternalStore(subjectStore.subscribe, read, read);
}

export function useItemView({ itemKey, groupKey, rowIndex }: ItemAddress): ItemView | undefined {
  const { evaluationStore } = useCrfForm();
  const read = useCallback(
    () => evaluationStore.getItemView({ itemKey, groupKey, rowIndex }),
    [evaluationStore, itemKey, groupKey, rowIndex],
  );
  return useSyncExternalStore(evaluationStore.subscribe, read, read);
}

export function useSectionView(sectionKey: string): SectionView | undefined {
  const { evaluationStore } = useCrfForm();
  const read = useCallback(() => evaluationStore.getSectionView(sectionKey), [evaluationStore, sectionKey]);
  return useSyncExternalStore(evaluationStore.subscribe, read, read);
}

export function useOutcomes(): OutcomeResult[] {
  const { evaluationStore } = useCrfForm();
  return useSyncExternalStore(
    evaluationStore.subscribe,
    evaluationStore.getOutcomes,
    evaluationStore.getOutcomes,
  );
}

/**
 * The renderer's own strings (add row, not done…) in the form's language, which may differ from the
 * app's (a monitor may review a form in the other language).
 */
export function useCrfText(): TFunction<'crf'> {
  const { language } = useCrfForm();
  const { i18n } = useTranslation('crf');
  return useMemo(() => i18n.getFixedT(language, 'crf'), [i18n, language]);
}
