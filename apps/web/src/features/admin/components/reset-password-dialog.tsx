import type { AdminUser } from '@cdms/contract';
import { AlertDialog } from 'radix-ui';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResetPassword } from '../api/reset-password.ts';
import styles from './admin-ui.module.css';
import { ServerError } from './server-error.tsx';

/**
 * Confirm, reset, then show the temporary password once. It lives only in this dialog's state:
 * closing the dialog (the parent unmounts it) forgets it, and nothing else keeps a copy.
 */
export function ResetPasswordDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const resetPassword = useResetPassword();
  const temporaryPassword = resetPassword.data;

  return (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content className={styles.dialog}>
          {temporaryPassword === undefined ? (
            <>
              <AlertDialog.Title className={styles.dialogTitle}>
                {t('users.reset.confirmTitle', { name: user.name })}
              </AlertDialog.Title>
              <AlertDialog.Description className={styles.dialogDescription}>
                {t('users.reset.confirmDescription')}
              </AlertDialog.Description>
              <div className={styles.form}>
                <ServerError error={resetPassword.error} />
                <div className={styles.dialogActions}>
                  <AlertDialog.Cancel className={styles.button} disabled={resetPassword.isPending}>
                    {t('actions.cancel')}
                  </AlertDialog.Cancel>
                  <button
                    type="button"
                    className={`${styles.button} ${styles.danger}`}
                    disabled={resetPassword.isPending}
                    onClick={() => resetPassword.mutate(user.id)}
                  >
                    {resetPassword.isPending ? t('actions.saving') : t('users.reset.confirm')}
                  </button>
                </div>
              </div>
            </>
          ) : (
            <TemporaryPassword name={user.name} password={temporaryPassword} />
          )}
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function TemporaryPassword({ name, password }: { name: string; password: string }) {
  const { t } = useTranslation('admin');
  const inputId = useId();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copyPassword() {
    try {
      await navigator.clipboard.writeText(password);
      setCopy('copied');
    } catch {
      setCopy('failed'); // no clipboard permission (or not a secure context): the text can be selected
    }
  }

  return (
    <>
      <AlertDialog.Title className={styles.dialogTitle}>{t('users.reset.doneTitle')}</AlertDialog.Title>
      <AlertDialog.Description className={styles.dialogDescription}>
        {t('users.reset.doneDescription', { name })}
      </AlertDialog.Description>
      <div className={styles.form}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={inputId}>
            {t('users.reset.passwordLabel')}
          </label>
          <div className={styles.secret}>
            <input
              id={inputId}
              className={styles.input}
              value={password}
              readOnly
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className={styles.button} onClick={() => void copyPassword()}>
              {copy === 'copied' ? t('users.reset.copied') : t('users.reset.copy')}
            </button>
          </div>
          <p className={copy === 'failed' ? styles.fieldError : styles.hint} aria-live="polite">
            {copy === 'failed' ? t('users.reset.copyFailed') : ''}
          </p>
        </div>
        <p className={styles.warning}>{t('users.reset.warning')}</p>
        <div className={styles.dialogActions}>
          <AlertDialog.Cancel className={`${styles.button} ${styles.primary}`}>
            {t('actions.close')}
          </AlertDialog.Cancel>
        </div>
      </div>
    </>
  );
}
