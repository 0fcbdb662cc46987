import { type AppliedLabRange, flagLabResult, labRangeLimitsText } from '@cdms/contract';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubjectStore } from '../../crf-form/subject-store.ts';
import styles from './subject-detail.module.css';

/**
 * Beside a lab result on the labTest form: the site's normal range and, as the value is typed, H or L
 * when it falls outside (issue 17). The same `flagLabResult` the server uses on save, so what the
 * screen shows is what raises the query.
 */
export function LabResultFlag({
  store,
  visitKey,
  formKey,
  itemKey,
  range,
}: {
  store: SubjectStore;
  visitKey: string;
  formKey: string;
  itemKey: string;
  range: AppliedLabRange;
}) {
  const { t } = useTranslation('subjects');
  const read = () => store.getValue(visitKey, formKey, { itemKey });
  const value = useSyncExternalStore(store.subscribe, read, read);
  const flag = typeof value === 'number' ? flagLabResult(value, range) : null;
  const limits = labRangeLimitsText(range);
  return (
    <span className={styles.labRange} data-testid={`lab-flag-${itemKey}`}>
      <span>{t('labFlag.range', { limits })}</span>
      {flag === 'H' || flag === 'L' ? (
        <span className={styles.labFlag} data-flag={flag} role="status">
          {flag} · {t(`labFlag.${flag}`)}
        </span>
      ) : null}
    </span>
  );
}
