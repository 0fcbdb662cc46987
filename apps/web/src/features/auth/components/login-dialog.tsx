import { type MeResponse, SECOND_FACTOR_CODE_MAX } from '@cdms/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from './auth-provider.tsx';
import styles from './login-dialog.module.css';
import { LOGIN_MODAL } from './modal-names.ts';

/** The login dialog of the landing page. Open it with `useModalStack().open(LOGIN_MODAL)`. */
export function LoginDialog({ onSignedIn }: { onSignedIn: (me: MeResponse) => void }) {
  const { t } = useTranslation('auth');
  // The description says what the current step asks for: email and password, or the code.
  const [codeStep, setCodeStep] = useState(false);
  return (
    <Modal
      name={LOGIN_MODAL}
      title={t('login.title')}
      description={codeStep ? t('login.codeIntro') : t('login.intro')}
      width="sm"
    >
      <LoginForm onSignedIn={onSignedIn} onCodeStep={setCodeStep} />
    </Modal>
  );
}

function LoginForm({
  onSignedIn,
  onCodeStep,
}: {
  onSignedIn: (me: MeResponse) => void;
  onCodeStep: (codeStep: boolean) => void;
}) {
  const { t } = useTranslation('auth');
  const { signIn } = useAuth();
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  // The form unmounts when the dialog closes: it opens again at the password step.
  useEffect(() => {
    onCodeStep(pendingToken !== null);
  }, [pendingToken, onCodeStep]);
  useEffect(() => () => onCodeStep(false), [onCodeStep]);
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
      const answer = await signIn({ email, password });
      if ('secondFactorRequired' in answer) {
        setPendingToken(answer.pendingToken);
        setSubmitting(false);
        return;
      }
      onSignedIn(answer);
    } catch (caught) {
      // Server errors (wrong credentials, locked, too many attempts) come with a message in the
      // user's language; network and timeout errors with the API client's own message.
      setError(caught instanceof ApiError ? caught.message : t('login.failed'));
      setPassword('');
      setSubmitting(false);
    }
  }

  if (pendingToken) {
    return (
      <SecondFactorForm
        pendingToken={pendingToken}
        onSignedIn={onSignedIn}
        onExpired={(message) => {
          setPendingToken(null);
          setPassword('');
          setError(message);
        }}
      />
    );
  }

  return (
    <LoginStepForm onSubmit={submit} error={error} submitting={submitting} submitLabel={t('login.submit')}>
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
    </LoginStepForm>
  );
}

/** The code step of a two-step login: a 6-digit code from the authenticator app, or a recovery code. */
function SecondFactorForm({
  pendingToken,
  onSignedIn,
  onExpired,
}: {
  pendingToken: string;
  onSignedIn: (me: MeResponse) => void;
  onExpired: (message: string) => void;
}) {
  const { t } = useTranslation('auth');
  const { signInSecondFactor } = useAuth();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const trimmed = code.replace(/\s/g, '');
    setMissing(trimmed === '');
    if (trimmed === '') return;
    setSubmitting(true);
    setError(null);
    try {
      onSignedIn(await signInSecondFactor({ pendingToken, code: trimmed }));
    } catch (caught) {
      const message = caught instanceof ApiError ? caught.message : t('login.failed');
      // An expired or spent pending login cannot be retried with another code: back to the password.
      if (caught instanceof ApiError && caught.code !== 'wrong_second_factor_code') {
        onExpired(message);
        return;
      }
      setError(message);
      setCode('');
      setSubmitting(false);
    }
  }

  return (
    <LoginStepForm
      onSubmit={submit}
      error={error}
      submitting={submitting}
      submitLabel={t('login.codeSubmit')}
    >
      <TextField
        label={t('login.code')}
        name="one-time-code"
        autoComplete="one-time-code"
        // Not numeric only: a recovery code (XXXX-XXXX) is accepted here too.
        maxLength={SECOND_FACTOR_CODE_MAX}
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={missing ? t('login.codeRequired') : undefined}
      />
    </LoginStepForm>
  );
}

/**
 * The frame both steps of the login share, so that they look and answer alike: their fields, the
 * server's refusal, and one submit button that says so while the request is under way.
 */
function LoginStepForm({
  onSubmit,
  error,
  submitting,
  submitLabel,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  error: string | null;
  submitting: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      {children}
      <FormAlert message={error} className={styles.error} />
      <Button type="submit" size="lg" block disabled={submitting}>
        {submitting ? t('login.submitting') : submitLabel}
      </Button>
    </form>
  );
}
