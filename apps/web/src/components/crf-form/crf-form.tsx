import { todayInKorea } from '@cdms/contract';
import {
  type FormEvaluation,
  getFormLayout,
  type ItemDefinition,
  type Language,
  type OutcomeResult,
  type SectionDefinition,
  type StudyDefinition,
} from '@cdms/study';
import { memo, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './crf-form.module.css';
import {
  CrfFormContext,
  type CrfFormContextValue,
  type ItemNote,
  useCrfForm,
  useCrfText,
  useOutcomes,
} from './crf-form-context.tsx';
import { CrfItem } from './crf-item.tsx';
import { createEvaluationStore } from './evaluation-store.ts';
import { createInputRefusals, type InputRefusals } from './input-refusals.ts';
import type { ControlProps } from './item-controls.tsx';
import { RepeatingSection } from './repeating-section.tsx';
import { SectionFrame } from './section-frame.tsx';
import type { SubjectStore } from './subject-store.ts';

export interface CrfFormProps {
  definition: StudyDefinition;
  visitKey: string;
  formKey: string;
  /** The subject's values (every visit and form: rules look across them). The form reads and writes here. */
  store: SubjectStore;
  language: Language;
  readOnly?: boolean;
  /** "YYYY-MM-DD"; defaults to today in Korea. Dates after it are refused where the item says notFuture. */
  today?: string;
  /** Called after each (debounced) run of the rules engine, for panels outside the form. */
  onEvaluate?: (evaluation: FormEvaluation) => void;
  /** How long the engine waits after the last change; tests shorten it. */
  evaluationDelayMs?: number;
  /** Messages from outside the rules engine (server queries, refused saves) under their items, by item path. */
  itemNotes?: ReadonlyMap<string, readonly ItemNote[]>;
  /** Extra controls in each section's header (e.g. a comment link). */
  sectionActions?: (section: SectionDefinition, titleId: string) => ReactNode;
  /** Extra controls beside each item's label outside repeating rows (e.g. its history); see the context. */
  itemActions?: (item: ItemDefinition, labelId: string) => ReactNode;
  /** The control of an item type the renderer does not draw itself (the eardrum photo); see the context. */
  itemControl?: (props: ControlProps) => ReactNode;
  /**
   * Where inputs report text they refused (a date after its maximum, half a time): a page that saves
   * passes its own and refuses to save while the list is not empty. The form keeps one otherwise.
   */
  refusals?: InputRefusals;
  /** Shown next to the form's title (e.g. the form's status icon). */
  titleAddon?: ReactNode;
}

/**
 * Renders any form of any study definition from its metadata, with the rules engine live: conditions
 * hide items and sections, "not done" disables a section, derived values appear read-only, check results
 * appear under their item. Values live in `store` (outside React state) so typing re-renders one input.
 */
export function CrfForm({
  definition,
  visitKey,
  formKey,
  store,
  language,
  readOnly = false,
  today: todayProp,
  onEvaluate,
  evaluationDelayMs,
  itemNotes,
  sectionActions,
  itemActions,
  itemControl,
  refusals: refusalsProp,
  titleAddon,
}: CrfFormProps) {
  const [ownRefusals] = useState(createInputRefusals);
  const refusals = refusalsProp ?? ownRefusals;
  const { i18n } = useTranslation('crf');
  const today = todayProp ?? todayInKorea();
  const onEvaluateRef = useRef(onEvaluate);
  onEvaluateRef.current = onEvaluate;
  const layout = getFormLayout(definition, visitKey, formKey);

  const evaluationStore = useMemo(
    () =>
      createEvaluationStore({
        definition,
        visitKey,
        formKey,
        subjectStore: store,
        today,
        delayMs: evaluationDelayMs,
        onEvaluate: (evaluation) => onEvaluateRef.current?.(evaluation),
      }),
    [definition, visitKey, formKey, store, today, evaluationDelayMs],
  );
  useEffect(() => evaluationStore.connect(), [evaluationStore]);

  const context = useMemo<CrfFormContextValue>(
    () => ({
      definition,
      visitKey,
      formKey,
      language,
      readOnly,
      today,
      subjectStore: store,
      evaluationStore,
      itemNotes,
      sectionActions,
      itemActions,
      itemControl,
      refusals,
    }),
    [
      definition,
      visitKey,
      formKey,
      language,
      readOnly,
      today,
      store,
      evaluationStore,
      itemNotes,
      sectionActions,
      itemActions,
      itemControl,
      refusals,
    ],
  );

  if (!layout) {
    return <p className={styles.unknownForm}>{i18n.getFixedT(language, 'crf')('unknownForm')}</p>;
  }
  return (
    <CrfFormContext value={context}>
      <div className={styles.form} lang={language} data-form={formKey} data-visit={visitKey}>
        {titleAddon ? (
          <div className={styles.formTitleLine}>
            <h2 className={styles.formTitle}>{layout.form.label[language]}</h2>
            {titleAddon}
          </div>
        ) : (
          <h2 className={styles.formTitle}>{layout.form.label[language]}</h2>
        )}
        <Outcomes />
        {layout.sections.map((section) =>
          section.repeating ? (
            <RepeatingSection key={section.key} section={section} />
          ) : (
            <PlainSection key={section.key} section={section} />
          ),
        )}
      </div>
    </CrfFormContext>
  );
}

/** Routing outcomes (spec §4 "user is directed to…"): a prompt naming the form to go to. */
function Outcomes() {
  const t = useCrfText();
  const { definition, language } = useCrfForm();
  const outcomes = useOutcomes();
  if (outcomes.length === 0) return null;
  const target = (outcome: OutcomeResult) => {
    if (!outcome.target) return null;
    const visit = definition.visits.find((v) => v.key === outcome.target?.visit);
    const form = definition.forms.find((f) => f.key === outcome.target?.form);
    return t('outcomes.target', {
      visit: visit?.label[language] ?? outcome.target.visit,
      form: form?.label[language] ?? outcome.target.form,
    });
  };
  return (
    <section className={styles.outcomes} aria-label={t('outcomes.title')}>
      {outcomes.map((outcome) => (
        <div key={outcome.outcomeId} className={styles.outcome} role="status">
          <strong>{t(`outcomes.${outcome.kind}`)}</strong>
          <span>{outcome.message[language]}</span>
          {outcome.target ? <span className={styles.outcomeTarget}>{target(outcome)}</span> : null}
        </div>
      ))}
    </section>
  );
}

const PlainSection = memo(function PlainSection({ section }: { section: SectionDefinition }) {
  return (
    <SectionFrame section={section}>
      {section.items
        .filter((item) => item.key !== section.notDoneItem)
        .map((item) => (
          <CrfItem key={item.key} item={item} />
        ))}
    </SectionFrame>
  );
});
