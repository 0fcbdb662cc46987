import {
  type DatedLabRange,
  flagLabResult,
  labRangeLimitsText,
  rangesInForceOn,
  todayInKorea,
} from '@cdms/contract';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubjectStore } from '../../../components/crf-form/subject-store.ts';
import styles from './subject-detail.module.css';

/**
 * Beside a lab result on the labTest form: the site's normal range in force on the specimen date as
 * it is typed (today while empty) and, as the value is typed, H or L when it falls outside (issue 17).
 * The same `rangesInForceOn` and `flagLabResult` the server uses on save, so what the screen shows is
 * what raises the query.
 */
export function LabResultFlag({
  store,
  visitKey,
  formKey,
  itemKey,
  testKey,
  specimenDateItem,
  ranges,
}: {
  store: SubjectStore;
  visitKey: string;
  formKey: string;
  itemKey: string;
  testKey: string;
  /** The lab form's specimen date item (the study's `labPanel` role): the range in force on it applies. */
  specimenDateItem: string | undefined;
  /** The test's ranges fitting the subject, each with the day it took effect. */
  ranges: readonly DatedLabRange[];
}) {
  const { t } = useTranslation('subjects');
  const read = () => store.getValue(visitKey, formKey, { itemKey });
  const value = useSyncExternalStore(store.subscribe, read, read);
  const readDate = () =>
    specimenDateItem === undefined
      ? undefined
      : store.getValue(visitKey, formKey, { itemKey: specimenDateItem });
  const specimenDate = useSyncExternalStore(store.subscribe, readDate, readDate);
  const onDate = typeof specimenDate === 'string' && specimenDate !== '' ? specimenDate : todayInKorea();
  const range = rangesInForceOn(ranges, onDate).get(testKey);
  if (!range) return null;
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
