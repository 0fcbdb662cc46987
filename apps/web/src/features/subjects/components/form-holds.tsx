import type { FormDataResponse } from '@cdms/contract';
import type { FormLayout, Language } from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { holdChangeToOffer, useHoldChange } from '../../../lib/holds-api.ts';
import type { FormAddress } from '../api/forms.ts';
import { FORM_HOLD_MODAL } from './detail-modals.tsx';

/**
 * The form's own freeze and lock (issue 15), for the form editor's slots: the toolbar's buttons
 * and the dialog that asks the reason.
 */
export function useFormHolds({
  address,
  formData,
  layout,
  language,
  visitLabel,
}: {
  address: FormAddress;
  formData: FormDataResponse;
  layout: FormLayout;
  language: Language;
  visitLabel: string;
}) {
  const { t } = useTranslation('holds');
  const toast = useToast();
  const modals = useModalStack();
  const { studyId, subjectPk, visitKey, formKey } = address;
  const holdChange = useHoldChange(studyId);
  /** The freeze or lock of this form the hold dialog places or lifts. */
  const [holdAction, setHoldAction] = useState<{ kind: 'frozen' | 'locked'; lift: boolean }>({
    kind: 'frozen',
    lift: false,
  });

  /** Freeze, lock, unfreeze or unlock this form with a reason; null when done, else the refusal. */
  async function changeHold(reason: string): Promise<string | null> {
    try {
      const request = {
        kind: holdAction.kind,
        target: { level: 'form' as const, subjectPk, visitKey, formKey },
        reason,
      };
      await holdChange.mutateAsync({ action: holdAction.lift ? 'lift' : 'place', request });
      toast(t(`done.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`), 'success');
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  function openHoldDialog(kind: 'frozen' | 'locked', lift: boolean) {
    setHoldAction({ kind, lift });
    modals.open(FORM_HOLD_MODAL);
  }

  // The form's own freeze and lock (a hold at the subject, site or study level is lifted there).
  const holdButton = (kind: 'frozen' | 'locked') => {
    const change = holdChangeToOffer(formData.holds, 'form', kind);
    if (change === null) return null;
    const lift = change === 'lift';
    return (
      <Button key={kind} variant="secondary" size="sm" onClick={() => openHoldDialog(kind, lift)}>
        {t(`actions.${lift ? 'lift' : 'place'}.${kind}Form`)}
      </Button>
    );
  };
  const holdButtons = (
    <>
      {formData.abilities.freeze ? holdButton('frozen') : null}
      {formData.abilities.lock ? holdButton('locked') : null}
    </>
  );

  return {
    buttons: holdButtons,
    dialog: (
      <ReasonDialog
        name={FORM_HOLD_MODAL}
        title={t(`dialog.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`)}
        description={t('dialog.formTarget', {
          subject: formData.subject.subjectId,
          visit: visitLabel,
          form: layout.form.label[language],
        })}
        reasonLabel={t('dialog.reason')}
        confirmLabel={t(`actions.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`)}
        tone={holdAction.lift ? 'primary' : 'danger'}
        onSubmit={changeHold}
      />
    ),
  };
}
