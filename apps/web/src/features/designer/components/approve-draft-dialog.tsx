import type { LocalizedText } from '@cdms/study';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useApproveDraft } from '../api/design-draft.ts';
import { labelIn } from '../lib/designer-state.ts';
import styles from './designer.module.css';

export const APPROVE_DIALOG = 'designer-approve';

/**
 * A second designer approves the draft as the server holds it (its revision) with an e-signature: their
 * password again, and their authenticator code when they sign in with one. What the signature means is
 * shown before it is given, as the server records it.
 */
export function ApproveDraftDialog({
  studyId,
  reviewId,
  revision,
  meaning,
}: {
  studyId: number;
  reviewId: number;
  revision: number;
  /** What the signature means, as the server records it. */
  meaning: LocalizedText;
}) {
  const { t } = useTranslation('designer');
  return (
    <Modal name={APPROVE_DIALOG} title={t('approve.title', { revision })} width="sm">
      <ApproveForm studyId={studyId} reviewId={reviewId} revision={revision} meaning={meaning} />
    </Modal>
  );
}

function ApproveForm({
  studyId,
  reviewId,
  revision,
  meaning,
}: {
  studyId: number;
  reviewId: number;
  revision: number;
  meaning: LocalizedText;
}) {
  const { t, i18n } = useTranslation('designer');
  const { close } = useModalStack();
  const approve = useApproveDraft(studyId);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') return;
    approve.mutate(
      { reviewId, revision, password, ...(code.trim() ? { code: code.trim() } : {}) },
      { onSuccess: () => close(APPROVE_DIALOG) },
    );
  }

  return (
    <form className={styles.dialogForm} onSubmit={submit} noValidate>
      <p className={styles.approval}>{labelIn(meaning, i18n.language)}</p>
      <TextField
        label={t('approve.password')}
        type="password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        autoComplete="current-password"
        maxLength={200}
      />
      <TextField
        label={t('approve.code')}
        hint={t('approve.codeHint')}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={20}
      />
      <FormAlert message={approve.error ? errorText(approve.error) : null} />
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => close(APPROVE_DIALOG)}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" disabled={approve.isPending || password === ''}>
          {t('approve.submit')}
        </Button>
      </div>
    </form>
  );
}
