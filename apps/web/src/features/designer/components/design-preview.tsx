import { type FormEvaluation, type Language, type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { Component, type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { CrfForm } from '../../../components/crf-form/crf-form.tsx';
import { EvaluationPanel } from '../../../components/crf-form/evaluation-panel.tsx';
import { createSubjectStore } from '../../../components/crf-form/subject-store.ts';
import { labelIn } from '../lib/designer-state.ts';
import styles from './designer.module.css';

/** How many of a draft's problems the paused preview lists. */
const LISTED_PROBLEMS = 5;

/**
 * The live preview beside the form editor: the real form renderer (`CrfForm`, the one data entry
 * uses) over the definition being edited, with a scratch subject kept in memory — values typed here
 * run the same engine as data entry (derivations, checks, show-when, routing outcomes, shown in the
 * shared evaluation panel) and are never saved. While the draft is not a valid definition the preview
 * pauses and says why.
 */
export function DesignPreview({ definition, formKey }: { definition: StudyDefinition; formKey: string }) {
  const { t, i18n } = useTranslation('designer');
  const language: Language = i18n.language.startsWith('en') ? 'en' : 'ko';
  const id = useId();
  const [store, setStore] = useState(() => createSubjectStore());
  const [evaluation, setEvaluation] = useState<FormEvaluation | null>(null);
  const visits = definition.visits.filter((visit) => visit.forms.includes(formKey));
  const [chosenVisit, setChosenVisit] = useState<string | null>(null);
  const visit = visits.find((candidate) => candidate.key === chosenVisit) ?? visits[0];
  const problems = useMemo(() => {
    const parsed = studyDefinitionSchema.safeParse(definition);
    return parsed.success ? [] : parsed.error.issues;
  }, [definition]);

  let body: ReactNode;
  if (!visit) body = <p className={styles.hint}>{t('preview.notScheduled')}</p>;
  else if (problems.length > 0)
    body = (
      <div className={styles.previewPaused} role="status">
        <p>{t('preview.paused', { count: problems.length })}</p>
        <ul>
          {problems.slice(0, LISTED_PROBLEMS).map((problem) => (
            <li key={`${problem.path.join('/')}-${problem.message}`}>
              <code>/{problem.path.join('/')}</code> {problem.message}
            </li>
          ))}
        </ul>
      </div>
    );
  else
    body = (
      <PreviewBoundary resetKey={definition} fallback={<p role="alert">{t('preview.failed')}</p>}>
        <CrfForm
          definition={definition}
          visitKey={visit.key}
          formKey={formKey}
          store={store}
          language={language}
          onEvaluate={setEvaluation}
        />
        <EvaluationPanel definition={definition} evaluation={evaluation} language={language} />
      </PreviewBoundary>
    );

  return (
    <section className={styles.preview} aria-label={t('preview.title')}>
      <div className={styles.previewHeader}>
        <h3 className={styles.panelTitle}>{t('preview.title')}</h3>
        {visits.length > 1 ? (
          <label className={styles.selectField} htmlFor={`${id}-visit`}>
            <span className={styles.propertyLabel}>{t('preview.visit')}</span>
            <select
              id={`${id}-visit`}
              value={visit?.key ?? ''}
              onChange={(event) => setChosenVisit(event.target.value)}
            >
              {visits.map((candidate) => (
                <option key={candidate.key} value={candidate.key}>
                  {labelIn(candidate.label, language)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <Button variant="ghost" size="sm" onClick={() => setStore(createSubjectStore())}>
          {t('preview.clear')}
        </Button>
      </div>
      <p className={styles.hint}>{t('preview.scratch')}</p>
      {body}
    </section>
  );
}

/**
 * A draft the engine cannot run (which the definition's checks should have caught) does not take the
 * page down: the preview says so until the next edit (`resetKey`, the definition) tries again.
 */
class PreviewBoundary extends Component<
  { resetKey: unknown; fallback: ReactNode; children: ReactNode },
  { failed: boolean; resetKey: unknown }
> {
  override state = { failed: false, resetKey: this.props.resetKey };
  static getDerivedStateFromProps(
    props: { resetKey: unknown },
    state: { failed: boolean; resetKey: unknown },
  ) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
