import type { AdminStudy } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoLive } from '../api/study-definition.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { TextField } from './form-field.tsx';

/**
 * Go live (issue 45 item 1): an administrator of the study approves its design with an e-signature
 * — their password, and their authenticator code when they sign in with one — and opens it for data
 * entry. What the signature means is shown before it is given, as the server records it.
 */
export function GoLiveDialog({
  study,
  onOpenChange,
}: {
  study: AdminStudy;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('admin');
  const goLive = useGoLive(study.id);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') return;
    goLive.mutate(
      { password, ...(code.trim() ? { code: code.trim() } : {}) },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('studies.goLive.title', { study: study.code })}
      description={t('studies.goLive.description')}
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.statusBox}>{t('studies.goLive.meaning')}</p>
        <TextField
          label={t('studies.goLive.password')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          maxLength={200}
        />
        <TextField
          label={t('studies.goLive.code')}
          value={code}
          onChange={setCode}
          hint={t('studies.goLive.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={20}
        />
        <FormActions
          error={goLive.error}
          pending={goLive.isPending}
          onCancel={() => onOpenChange(false)}
          submitLabel={t('studies.goLive.submit')}
        />
      </form>
    </AdminDialog>
  );
}
