import type { AdminUser } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { useResetSecondFactor } from '../api/reset-second-factor.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** "Reset two-factor sign-in of …?" then the reset (audited by the server); closes when done. */
export function ResetSecondFactorDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const reset = useResetSecondFactor();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('users.resetTwoFactor.confirmTitle', { name: user.name })}
      description={t('users.resetTwoFactor.confirmDescription')}
      confirmLabel={t('users.resetTwoFactor.confirm')}
      pending={reset.isPending}
      error={reset.error}
      onConfirm={() => reset.mutate(user.id, { onSuccess: onClose })}
    />
  );
}
