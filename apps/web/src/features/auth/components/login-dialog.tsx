import type { MeResponse } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from './auth-provider.tsx';
import styles from './login-dialog.module.css';

export const LOGIN_MODAL = 'login';

/** The login dialog of the landing page. Open it with `useModalStack().open(LOGIN_MODAL)`. */
export function LoginDialog({ onSignedIn }: { onSignedIn: (me: MeResponse) => void }) {
  const { t } = useTranslation('auth');
  return (
    <Modal name={LOGIN_MODAL} title={t('login.title')} description={t('login.intro')} width="sm">
      <LoginForm onSignedIn={onSignedIn} />
    </Modal>
  );
}

function LoginForm({ onSignedIn }: { onSignedIn: (me: MeResponse) => void }) {
  const { t } = useTranslation('auth');
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: boolean; password?: boolean }>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const next = { email: email.trim() === '', password: password === '' };
    setMissing(next);
    if (next.email || next.password) return;
    setSubmitting(true);
    setError(null);
    try {
      const me = await signIn({ email, password });
      onSignedIn(me);
    } catch (caught) {
      // Server errors (wrong credentials, locked, too many attempts) come with a message in the
      // user's language; network and timeout errors with the API client's own message.
      setError(caught instanceof ApiError ? caught.message : t('login.failed'));
      setPassword('');
      setSubmitting(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label={t('login.email')}
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        autoFocus
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={missing.email ? t('login.emailRequired') : undefined}
      />
      <TextField
        label={t('login.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={missing.password ? t('login.passwordRequired') : undefined}
      />
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" size="lg" block disabled={submitting}>
        {submitting ? t('login.submitting') : t('login.submit')}
      </Button>
    </form>
  );
}
