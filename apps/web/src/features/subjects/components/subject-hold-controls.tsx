import { type HoldKindValue, type OverviewResponse, strongestHold } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { HoldMarkBadge } from '../../../components/record-marks.tsx';
import { useToast } from '../../../components/toast.tsx';
import { holdChangeToOffer, useHoldChange } from '../../../lib/holds-api.ts';
import styles from './subjects.module.css';

const SUBJECT_HOLD_MODAL = 'subject-hold';

/**
 * The subject's freeze and lock on its overview (issue 15): the strongest hold over it as a mark, and
 * for monitors and data managers (the server's `holdAbilities`) freezing or locking the subject, or
 * lifting the subject's own hold, with a reason. A site's or the study's hold is lifted on the board.
 */
export function SubjectHoldControls({ studyId, overview }: { studyId: number; overview: OverviewResponse }) {
  const { t } = useTranslation('holds');
  const modals = useModalStack();
  const toast = useToast();
  const change = useHoldChange(studyId);
  const [pending, setPending] = useState<{ kind: HoldKindValue; lift: boolean }>({
    kind: 'frozen',
    lift: false,
  });
  const subjectPk = overview.subject.id;
  // Form-level holds cover one form each; the subject's mark names what holds the whole subject.
  const wide = overview.holds.filter((hold) => hold.level !== 'form');
  const strongest = strongestHold(wide);

  const button = (kind: HoldKindValue, allowed: boolean) => {
    if (!allowed) return null;
    const change = holdChangeToOffer(wide, 'subject', kind);
    if (change === null) return null;
    const lift = change === 'lift';
    return (
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setPending({ kind, lift });
          modals.open(SUBJECT_HOLD_MODAL);
        }}
      >
        {t(`actions.${lift ? 'lift' : 'place'}.${kind}Subject`)}
      </Button>
    );
  };

  async function submit(reason: string): Promise<string | null> {
    try {
      await change.mutateAsync({
        action: pending.lift ? 'lift' : 'place',
        request: { kind: pending.kind, target: { level: 'subject', subjectPk }, reason },
      });
      toast(t(`done.${pending.lift ? 'lift' : 'place'}.${pending.kind}`), 'success');
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  const freeze = button('frozen', overview.holdAbilities.freeze);
  const lock = button('locked', overview.holdAbilities.lock);
  if (!strongest && !freeze && !lock) return null;
  return (
    <div className={styles.subjectHolds}>
      {strongest ? <HoldMarkBadge mark={{ kind: strongest.kind, level: strongest.level }} /> : null}
      {freeze}
      {lock}
      <ReasonDialog
        name={SUBJECT_HOLD_MODAL}
        title={t(`dialog.${pending.lift ? 'lift' : 'place'}.${pending.kind}`)}
        description={t('dialog.subjectTarget', { subject: overview.subject.subjectId })}
        reasonLabel={t('dialog.reason')}
        confirmLabel={t(`actions.${pending.lift ? 'lift' : 'place'}.${pending.kind}Subject`)}
        tone={pending.lift ? 'primary' : 'danger'}
        onSubmit={submit}
      />
    </div>
  );
}
