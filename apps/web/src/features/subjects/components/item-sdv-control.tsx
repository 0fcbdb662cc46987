import type { SdvItem } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import styles from './subject-detail.module.css';

/**
 * An item's source data verification (issue 15) beside its label. A monitor who may verify gets a
 * checkbox (ticking verifies; unticking asks for a reason first, in the page's dialog); everyone else
 * sees the mark. A value changed since it was verified says so, and the box is empty again.
 */
export function ItemSdvControl({
  sdv,
  canVerify,
  pending,
  describedBy,
  onVerify,
  onUnverify,
}: {
  /** Undefined: the item has no saved value, or is derived: nothing to verify. */
  sdv: SdvItem | undefined;
  canVerify: boolean;
  pending: boolean;
  describedBy: string;
  onVerify: () => void;
  onUnverify: () => void;
}) {
  const { t } = useTranslation('sdv');
  if (!sdv) return null;
  const who =
    sdv.verifiedBy && sdv.verifiedAt
      ? t('item.verifiedBy', { name: sdv.verifiedBy.name, at: formatDateTimeKst(sdv.verifiedAt) })
      : undefined;
  const changed =
    sdv.state === 'changed' ? (
      <span
        className={styles.sdvChanged}
        title={sdv.changedAt ? t('item.changedAt', { at: formatDateTimeKst(sdv.changedAt) }) : undefined}
      >
        {t('item.changed')}
      </span>
    ) : null;
  if (!canVerify) {
    if (sdv.state === 'unverified') return null;
    return sdv.state === 'verified' ? (
      <span className={styles.sdvVerified} title={who}>
        {t('item.verifiedMark')}
      </span>
    ) : (
      changed
    );
  }
  return (
    <span className={styles.sdvControl}>
      <label className={styles.sdvCheck} title={who}>
        <input
          type="checkbox"
          checked={sdv.state === 'verified'}
          disabled={pending}
          aria-describedby={describedBy}
          onChange={(event) => (event.target.checked ? onVerify() : onUnverify())}
        />
        {t('item.checkbox')}
      </label>
      {changed}
    </span>
  );
}
