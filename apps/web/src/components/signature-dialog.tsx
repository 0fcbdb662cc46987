import type { SignCasebookRequest } from '@cdms/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../lib/me.ts';
import { AppCodeField } from './app-code-field.tsx';
import { Button } from './button.tsx';
import { FormAlert } from './form-alert.tsx';
import { Modal } from './modal.tsx';
import { useModalStack } from './modal-stack-provider.tsx';
import styles from './signature-dialog.module.css';
import { TextField } from './text-field.tsx';

interface SignatureDialogProps {
  /** The modal's name in the stack. */
  name: string;
  title: string;
  description?: ReactNode;
  /** What the signature means, shown before it is given (as the server records it). */
  meaning: ReactNode;
  submitLabel: string;
  /** The submit button's label while the server answers ("Signing…"). */
  pendingLabel: string;
  /**
   * Sends the signature (the password, and the authenticator code when the signer has two-factor
   * sign-in). Resolves to null when it is done (the dialog closes), or to the refusal to show in the
   * dialog (the server's message in the user's language); the fields are emptied then.
   */
  onSubmit: (request: SignCasebookRequest) => Promise<string | null>;
}

/**
 * The one electronic-signature dialog (21 CFR 11.200: the password entered again): the casebook's
 * signature and an amendment's publication. What the signature means comes first, then the password
 * and, for a signer with two-factor sign-in, the authenticator code; a refusal (wrong password, code
 * needed, too many attempts, the server's own checks) is shown inside. Its content unmounts when
 * closed, so it opens empty.
 */
export function SignatureDialog({ name, title, description, ...form }: SignatureDialogProps) {
  return (
    <Modal name={name} title={title} description={description} width="sm">
      <SignatureForm name={name} {...form} />
    </Modal>
  );
}

function SignatureForm({
  name,
  meaning,
  submitLabel,
  pendingLabel,
  onSubmit,
}: Omit<SignatureDialogProps, 'title' | 'description'>) {
  const { t } = useTranslation('ui');
  const modals = useModalStack();
  // A signer with two-factor sign-in gives the authenticator code too (the server asks for it).
  const needsCode = useMe().data?.user.secondFactorEnrolled === true;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    if (!password) {
      setMissing(true);
      return;
    }
    setRefusal(null);
    setPending(true);
    try {
      const trimmedCode = code.replace(/\s/g, '');
      const refused = await onSubmit(
        needsCode && trimmedCode ? { password, code: trimmedCode } : { password },
      );
      if (refused === null) {
        if (modals.isOpen(name)) modals.close(name);
        return;
      }
      setPassword('');
      setCode('');
      setRefusal(refused);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className={styles.form}>
      <div className={styles.statement}>
        <p className={styles.statementLabel}>{t('signature.statement')}</p>
        <p className={styles.statementText}>{meaning}</p>
      </div>
      <TextField
        label={t('signature.password')}
        type="password"
        autoComplete="current-password"
        maxLength={200}
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setMissing(false);
          setRefusal(null);
        }}
        error={missing ? t('signature.passwordRequired') : undefined}
        autoFocus
      />
      {needsCode ? (
        <AppCodeField
          label={t('signature.code')}
          value={code}
          onChange={(value) => {
            setCode(value);
            setRefusal(null);
          }}
        />
      ) : null}
      <FormAlert message={refusal} className={styles.problem} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => modals.close(name)}>
          {t('cancel')}
        </Button>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
