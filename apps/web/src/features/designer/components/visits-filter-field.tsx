import type { FormDefinition, StudyDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { labelIn } from '../lib/designer-state.ts';
import { toggleInOrder } from '../lib/list-edits.ts';
import styles from './designer.module.css';

/**
 * Which of the form's visits a check or a routing outcome applies to: every visit that has the form
 * (none ticked: the filter is left out), or the ticked ones, kept in the schedule's order.
 */
export function VisitsFilterField({
  definition,
  form,
  visits,
  onChange,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  visits: string[] | undefined;
  onChange: (visits: string[] | undefined) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const holding = definition.visits.filter((visit) => visit.forms.includes(form.key));
  const chosen = visits ?? [];

  function toggle(visitKey: string) {
    const next = toggleInOrder(
      chosen,
      visitKey,
      holding.map((visit) => visit.key),
    );
    onChange(next.length === 0 ? undefined : next);
  }

  return (
    <fieldset className={styles.checkList}>
      <legend className={styles.propertyLabel}>
        {t('visitsFilter.label')}{' '}
        <span className={styles.headerMeta}>
          {visits === undefined ? t('visitsFilter.all') : t('visitsFilter.some', { count: chosen.length })}
        </span>
      </legend>
      {holding.map((visit) => (
        <label key={visit.key} className={styles.flag}>
          <input type="checkbox" checked={chosen.includes(visit.key)} onChange={() => toggle(visit.key)} />
          {labelIn(visit.label, i18n.language)}
        </label>
      ))}
      {/* A visit that no longer has the form stays listed, so it can be unticked. */}
      {chosen
        .filter((key) => !holding.some((visit) => visit.key === key))
        .map((key) => (
          <label key={key} className={styles.flag}>
            <input type="checkbox" checked onChange={() => toggle(key)} />
            {key}
          </label>
        ))}
    </fieldset>
  );
}
