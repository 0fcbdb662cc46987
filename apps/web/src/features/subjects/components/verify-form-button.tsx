import type { SdvItem } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import styles from './subject-detail.module.css';

/** Why "Verify form" is off though the reader may verify: nothing in the SDV plan, or all of it verified. */
export type VerifyFormBlocker = 'notInPlan' | 'allVerified';

/** What stops "Verify form" for a form's SDV items (null: the button works). */
export function verifyFormBlocker(items: Readonly<Record<string, SdvItem>>): VerifyFormBlocker | null {
  const planned = Object.values(items).filter((item) => item.inPlan);
  if (planned.length === 0) return 'notInPlan';
  return planned.every((item) => item.state === 'verified') ? 'allVerified' : null;
}

/**
 * "Verify form" for a monitor: verifies every item of the SDV plan not verified yet. When there is none the
 * button was only greyed out, without a word (issue 43 item 8); now the reason stands beside it, and the
 * button names it as its description (`aria-describedby`) for screen readers.
 */
export function VerifyFormButton({
  items,
  pending,
  onVerify,
}: {
  items: Readonly<Record<string, SdvItem>>;
  pending: boolean;
  onVerify: () => void;
}) {
  const { t } = useTranslation('sdv');
  const reasonId = useId();
  const blocker = verifyFormBlocker(items);
  return (
    <span className={styles.verifyForm}>
      <Button
        variant="secondary"
        size="sm"
        disabled={pending || blocker !== null}
        aria-describedby={blocker ? reasonId : undefined}
        onClick={onVerify}
      >
        {t('form.verifyForm')}
      </Button>
      {blocker ? (
        <span id={reasonId} className={styles.verifyFormReason}>
          {t(`form.blocked.${blocker}`)}
        </span>
      ) : null}
    </span>
  );
}
