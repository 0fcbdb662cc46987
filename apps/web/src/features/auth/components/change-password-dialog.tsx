import { type PasswordIssue, passwordIssues } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useChangePassword } from '../api/change-password.ts';
import styles from './change-password-dialog.module.css';
import { CHANGE_PASSWORD_MODAL } from './modal-names.ts';

/** The rules listed under the new password; too_long is only listed once it is broken. */
const listedRules: readonly PasswordIssue[] = ['too_short', 'needs_letter', 'needs_digit', 'contains_email'];

export function ChangePasswordDialog({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  return (
    <Modal name={CHANGE_PASSWORD_MODAL} title={t('password.title')}>
      <ChangePasswordForm email={email} />
    </Modal>
  );
}

function ChangePasswordForm({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const { close } = useModalStack();
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rulesId = useId();

  // The policy shared with the server (packages/contract): feedback while typing, not after a 422.
  const issues = passwordIssues(newPassword, email);
  const rules = issues.includes('too_long') ? [...listedRules, 'too_long' as const] : listedRules;
  const mismatch = confirmation !== '' && confirmation !== newPassword;
  const ready =
    currentPassword !== '' && newPassword !== '' && issues.length === 0 && confirmation === newPassword;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || change.isPending) return;
    setError(null);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          close(CHANGE_PASSWORD_MODAL);
          toast(t('password.changed'), 'success');
        },
        onError: (caught) => setError(errorText(caught)),
      },
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label={t('password.current')}
        type="password"
        autoComplete="current-password"
        autoFocus
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
      />
      <div className={styles.newPassword}>
        <TextField
          label={t('password.new')}
          type="password"
          autoComplete="new-password"
          aria-describedby={rulesId}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <ul id={rulesId} className={styles.rules} aria-label={t('password.rulesLabel')}>
          {rules.map((rule) => {
            const met = newPassword !== '' && !issues.includes(rule);
            return (
              <li key={rule} className={met ? styles.met : styles.unmet} data-met={met}>
                <span aria-hidden="true" className={styles.mark}>
                  {met ? '✓' : '•'}
                </span>
                {t(`password.rules.${rule}`)}
                <span className={styles.visuallyHidden}>
                  {met ? t('password.ruleMet') : t('password.ruleUnmet')}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
      <TextField
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        error={mismatch ? t('password.mismatch') : undefined}
      />
      <FormAlert message={error} className={styles.error} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => close(CHANGE_PASSWORD_MODAL)}>
          {t('password.cancel')}
        </Button>
        <Button type="submit" disabled={!ready || change.isPending}>
          {t('password.submit')}
        </Button>
      </div>
    </form>
  );
}
