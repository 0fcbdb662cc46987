import { todayInKorea } from '@cdms/contract';
import type { FormEvaluation, Language, StudyDefinition } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import { CrfForm } from '../../../components/crf-form/crf-form.tsx';
import { EvaluationPanel } from '../../../components/crf-form/evaluation-panel.tsx';
import { createSubjectStore } from '../../../components/crf-form/subject-store.ts';
import { changeLanguage, supportedLanguages } from '../../../i18n/i18n.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { sampleSubjectData } from '../sample-data.ts';
import styles from './form-preview-page.module.css';

/** The study the review page shows (the demo server's study). */
const STUDY_ID = 1;
/** The study `sampleSubject()` belongs to. */
const SAMPLE_STUDY_KEY = 'tmPerforation';

/**
 * /test (prototype-spec §2 "Test page"): a review page for the form renderer. Pick a visit and a form,
 * fill it by hand or with the sample subject, and watch the rules engine. Values stay in memory.
 */
export function FormPreviewPage() {
  const { t } = useTranslation('crf');
  const query = useStudyDefinition(STUDY_ID);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{t('preview.title')}</h1>
          <p className={styles.description}>{t('preview.description')}</p>
        </div>
      </header>
      {query.isPending ? (
        <p className={styles.state} aria-busy="true">
          {t('preview.loading')}
        </p>
      ) : query.isError ? (
        <div className={styles.state} role="alert">
          <p>
            {t('preview.loadError')} {query.error.message}
          </p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('preview.retry')}
          </Button>
        </div>
      ) : (
        <Preview definition={query.data.definition} version={query.data.version} />
      )}
    </div>
  );
}

function Preview({ definition, version }: { definition: StudyDefinition; version: string }) {
  const { t, i18n } = useTranslation('crf');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const { confirm } = useAlert();
  const [searchParams, setSearchParams] = useSearchParams();
  const [store] = useState(() => createSubjectStore());
  const [readOnly, setReadOnly] = useState(false);
  const [evaluation, setEvaluation] = useState<FormEvaluation | null>(null);
  const today = todayInKorea();
  const id = useId();

  // The choice lives in the address (?visit=v1&form=labTest) so a reviewer can share or reload it.
  const visit = definition.visits.find((v) => v.key === searchParams.get('visit')) ?? definition.visits[0];
  const requestedForm = searchParams.get('form') ?? '';
  const formKey = visit?.forms.includes(requestedForm) ? requestedForm : visit?.forms[0];
  const choose = (visitKey: string, nextForm?: string) => {
    const nextVisit = definition.visits.find((v) => v.key === visitKey);
    setSearchParams({ visit: visitKey, form: nextForm ?? nextVisit?.forms[0] ?? '' }, { replace: true });
    setEvaluation(null);
  };
  const formLabel = (key: string) => definition.forms.find((f) => f.key === key)?.label[language] ?? key;

  const clear = async () => {
    if (await confirm({ message: t('preview.clearConfirm'), confirmLabel: t('preview.clear') }))
      store.replace({});
  };

  return (
    <>
      <div className={styles.toolbar}>
        <div className={styles.field}>
          <label htmlFor={`${id}-visit`}>{t('preview.visit')}</label>
          <select
            id={`${id}-visit`}
            value={visit?.key ?? ''}
            onChange={(event) => choose(event.target.value)}
          >
            {definition.visits.map((v) => (
              <option key={v.key} value={v.key}>
                {v.label[language]}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-form`}>{t('preview.form')}</label>
          <select
            id={`${id}-form`}
            value={formKey ?? ''}
            onChange={(event) => visit && choose(visit.key, event.target.value)}
          >
            {visit?.forms.map((key) => (
              <option key={key} value={key}>
                {formLabel(key)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <span id={`${id}-language`}>{t('preview.language')}</span>
          <fieldset className={styles.languages} aria-labelledby={`${id}-language`}>
            {supportedLanguages.map((code) => (
              <button
                key={code}
                type="button"
                lang={code}
                aria-pressed={language === code}
                className={styles.languageButton}
                onClick={() => changeLanguage(code)}
              >
                {code.toUpperCase()}
              </button>
            ))}
          </fieldset>
        </div>
        <label className={styles.checkboxField}>
          <input type="checkbox" checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />
          <span>{t('preview.readOnly')}</span>
        </label>
        <div className={styles.actions}>
          <Button
            variant="secondary"
            disabled={definition.key !== SAMPLE_STUDY_KEY}
            onClick={() => store.replace(sampleSubjectData())}
          >
            {t('preview.fillSample')}
          </Button>
          <Button variant="ghost" onClick={() => void clear()}>
            {t('preview.clear')}
          </Button>
        </div>
      </div>
      <p className={styles.meta}>
        {t('preview.definitionVersion', { study: definition.label[language], version })} ·{' '}
        {t('preview.today', { today })}
      </p>
      <div className={styles.columns}>
        <div className={styles.formColumn}>
          {visit && formKey ? (
            <CrfForm
              key={`${visit.key}.${formKey}`}
              definition={definition}
              visitKey={visit.key}
              formKey={formKey}
              store={store}
              language={language}
              readOnly={readOnly}
              today={today}
              onEvaluate={setEvaluation}
            />
          ) : null}
        </div>
        <EvaluationPanel definition={definition} evaluation={evaluation} language={language} />
      </div>
    </>
  );
}
