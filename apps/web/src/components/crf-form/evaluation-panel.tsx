import { type FormEvaluation, getFormLayout, type Language, type StudyDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { formatValue } from './crf-item.tsx';
import styles from './evaluation-panel.module.css';

interface EvaluationPanelProps {
  definition: StudyDefinition;
  evaluation: FormEvaluation | null;
  language: Language;
}

/** What the rules engine says about the form now: check results, derived values, outcomes, missing items. */
export function EvaluationPanel({ definition, evaluation, language }: EvaluationPanelProps) {
  const { t } = useTranslation('crf');
  const layout = evaluation ? getFormLayout(definition, evaluation.visitKey, evaluation.formKey) : undefined;
  /** "Row 2 · End date" for a row item, the item's label otherwise. */
  const place = (itemKey: string, rowIndex?: number) => {
    const label =
      layout?.items.get(itemKey)?.item.label[language] ?? layout?.groups.get(itemKey)?.label[language];
    const name = label ?? itemKey;
    return rowIndex === undefined ? name : `${t('rows.rowLabel', { number: rowIndex + 1 })} · ${name}`;
  };
  /** "Air conduction · " when the form has several sections (two PTA averages share one label). */
  const sectionOf = (itemKey: string) => {
    const section = layout?.items.get(itemKey)?.section;
    return section && (layout?.sections.length ?? 0) > 1 ? `${section.label[language]} · ` : '';
  };
  const none = <p className={styles.none}>{t('preview.panel.none')}</p>;
  const derived = Object.entries(evaluation?.derived ?? {});

  return (
    <aside className={styles.panel} aria-label={t('preview.panel.title')}>
      <h2 className={styles.panelTitle}>{t('preview.panel.title')}</h2>
      <section className={styles.panelSection} aria-label={t('preview.panel.outcomes')}>
        <h3>{t('preview.panel.outcomes')}</h3>
        {evaluation && evaluation.outcomes.length > 0 ? (
          <ul>
            {evaluation.outcomes.map((outcome) => (
              <li key={outcome.outcomeId} className={styles.outcomeEntry}>
                <strong>{t(`outcomes.${outcome.kind}`)}</strong> {outcome.message[language]}
              </li>
            ))}
          </ul>
        ) : (
          none
        )}
      </section>
      <section className={styles.panelSection} aria-label={t('preview.panel.checks')}>
        <h3>
          {t('preview.panel.checks')} <span className={styles.count}>{evaluation?.checks.length ?? 0}</span>
        </h3>
        {evaluation && evaluation.checks.length > 0 ? (
          <ul>
            {evaluation.checks.map((check) => (
              <li
                key={check.path + check.checkId}
                className={styles.checkEntry}
                data-severity={check.severity}
              >
                <span className={styles.severityTag}>{t(`severity.${check.severity}`)}</span>
                <span className={styles.entryPlace}>{place(check.itemKey, check.rowIndex)}</span>
                <span>{check.message[language]}</span>
              </li>
            ))}
          </ul>
        ) : (
          none
        )}
      </section>
      <section className={styles.panelSection} aria-label={t('preview.panel.derived')}>
        <h3>{t('preview.panel.derived')}</h3>
        {derived.length > 0 ? (
          <dl className={styles.derivedList}>
            {derived.map(([key, value]) => {
              const item = layout?.items.get(key)?.item;
              const text = item ? formatValue(definition, item, value, language) : String(value ?? '');
              return (
                <div key={key}>
                  <dt>
                    {sectionOf(key)}
                    {place(key)}
                  </dt>
                  <dd>
                    {text === '' ? '—' : text} {text !== '' && item?.unit ? item.unit : null}
                  </dd>
                </div>
              );
            })}
          </dl>
        ) : (
          none
        )}
      </section>
      <section className={styles.panelSection} aria-label={t('preview.panel.missing')}>
        <h3>
          {t('preview.panel.missing')} <span className={styles.count}>{evaluation?.missing.length ?? 0}</span>
        </h3>
        {evaluation && evaluation.missing.length > 0 ? (
          <ul className={styles.missingList}>
            {evaluation.missing.map((missing) => (
              <li key={missing.path}>{place(missing.itemKey, missing.rowIndex)}</li>
            ))}
          </ul>
        ) : (
          none
        )}
      </section>
    </aside>
  );
}
