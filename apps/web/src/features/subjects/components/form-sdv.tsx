import type { FormDataResponse } from '@cdms/contract';
import type { FormLayout, Language } from '@cdms/study';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { FormAddress } from '../api/forms.ts';
import { type SdvChange, useSdvChange } from '../api/sdv.ts';
import { itemLabel } from '../lib/form-values.ts';
import { UNVERIFY_MODAL } from './detail-modals.tsx';
import { ItemSdvControl } from './item-sdv-control.tsx';
import { VerifyFormButton } from './verify-form-button.tsx';

/**
 * The form's source data verification (issue 15), for the form editor's slots: each item's SDV
 * control, the toolbar's "verify form" and the un-verify dialog (a reason asked).
 */
export function useFormSdv({
  address,
  formData,
  layout,
  language,
  refetchForm,
}: {
  address: FormAddress;
  formData: FormDataResponse;
  layout: FormLayout;
  language: Language;
  /** The form read again (after a refusal by a hold placed meanwhile). */
  refetchForm: () => void;
}) {
  const { t } = useTranslation('sdv');
  const toast = useToast();
  const { alert } = useAlert();
  const modals = useModalStack();
  const sdvChange = useSdvChange(address);
  /** The item whose SDV mark the un-verify dialog withdraws. */
  const [unverifyItem, setUnverifyItem] = useState<string | null>(null);

  /**
   * A change of SDV marks. Null when done, or the server's refusal in the user's language (for the
   * un-verify dialog); outside the dialog the refusal is a toast, a hold's (423) an alert.
   */
  async function changeSdv(change: SdvChange, inDialog = false): Promise<string | null> {
    try {
      await sdvChange.mutateAsync(change);
      if (change.action === 'verifyForm') toast(t('form.verified'), 'success');
      if (change.action === 'unverify') toast(t('item.unverified'), 'success');
      return null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError && error.status === 423) {
        refetchForm();
        if (!inDialog) void alert({ message });
      } else if (!inDialog) {
        toast(message, 'error');
      }
      return message;
    }
  }

  const canVerify = formData.abilities.verify;
  const sdvPending = sdvChange.isPending;
  /** An item's (or repeating group's) SDV control, by its stored key. */
  // biome-ignore lint/correctness/useExhaustiveDependencies: changeSdv is a plain function of this render; the control re-renders with the marks it reads
  const sdvControl = useCallback(
    (itemKey: string, describedBy: string) => (
      <ItemSdvControl
        sdv={formData.sdv.items[itemKey]}
        canVerify={canVerify}
        pending={sdvPending}
        describedBy={describedBy}
        onVerify={() => void changeSdv({ action: 'verify', itemKeys: [itemKey] })}
        onUnverify={() => {
          setUnverifyItem(itemKey);
          modals.open(UNVERIFY_MODAL);
        }}
      />
    ),
    [formData.sdv.items, canVerify, sdvPending, modals],
  );

  return {
    /** An item's (or repeating group's) SDV control, by its stored key. */
    control: sdvControl,
    verifyButton: canVerify ? (
      <VerifyFormButton
        items={formData.sdv.items}
        pending={sdvPending}
        onVerify={() => void changeSdv({ action: 'verifyForm' })}
      />
    ) : null,
    unverifyDialog: (
      <ReasonDialog
        name={UNVERIFY_MODAL}
        title={t('unverify.title')}
        description={t('unverify.description', {
          item: unverifyItem ? itemLabel(layout, unverifyItem, language) : '',
        })}
        reasonLabel={t('unverify.reason')}
        confirmLabel={t('unverify.confirm')}
        tone="danger"
        onSubmit={(reason) =>
          unverifyItem
            ? changeSdv({ action: 'unverify', itemKeys: [unverifyItem], reason }, true)
            : Promise.resolve(null)
        }
      />
    ),
  };
}
