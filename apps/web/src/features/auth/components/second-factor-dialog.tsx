import type { MeResponse, SecondFactorEnrolmentResponse } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useConfirmSecondFactorEnrolment, useStartSecondFactorEnrolment } from '../api/second-factor.ts';
import styles from './second-factor-dialog.module.css';

export const SECOND_FACTOR_MODAL = 'second-factor';

/** Two-factor sign-in from the user popup: its status, or enrolment (password → QR code → code). */
export function SecondFactorDialog({ me }: { me: MeResponse }) {
  const { t } = useTranslation('auth');
  return (
    <Modal name={SECOND_FACTOR_MODAL} title={t('secondFactor.title')} width="sm">
      {me.user.secondFactorEnrolled ? <p>{t('secondFactor.enrolled')}</p> : <Enrolment />}
    </Modal>
  );
}

function errorText(caught: unknown): string {
  return caught instanceof ApiError ? caught.message : String(caught);
}

function Enrolment() {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const { close } = useModalStack();
  const start = useStartSecondFactorEnrolment();
  const confirm = useConfirmSecondFactorEnrolment();
  const [password, setPassword] = useState('');
  const [enrolment, setEnrolment] = useState<SecondFactorEnrolmentResponse | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password === '' || start.isPending) return;
    setError(null);
    start.mutate(password, {
      onSuccess: (started) => {
        setPassword('');
        setEnrolment(started);
      },
      onError: (caught) => setError(errorText(caught)),
    });
  }

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = code.replace(/\s/g, '');
    if (trimmed === '' || confirm.isPending) return;
    setError(null);
    confirm.mutate(trimmed, {
      onSuccess: () => {
        close(SECOND_FACTOR_MODAL);
        toast(t('secondFactor.done'), 'success');
      },
      onError: (caught) => {
        setCode('');
        setError(errorText(caught));
      },
    });
  }

  const errorLine = error ? (
    <p className={styles.error} role="alert">
      {error}
    </p>
  ) : null;

  if (!enrolment) {
    return (
      <form className={styles.form} onSubmit={submitPassword} noValidate>
        <p>{t('secondFactor.intro')}</p>
        <TextField
          label={t('secondFactor.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {errorLine}
        <Button type="submit" disabled={password === '' || start.isPending}>
          {t('secondFactor.start')}
        </Button>
      </form>
    );
  }

  return (
    <form className={styles.form} onSubmit={submitCode} noValidate>
      <p>{t('secondFactor.scan')}</p>
      <img className={styles.qr} src={enrolment.qrCodeDataUrl} alt={t('secondFactor.qrAlt')} />
      <p>{t('secondFactor.manual')}</p>
      <code className={styles.secret} data-testid="second-factor-secret">
        {enrolment.secret}
      </code>
      <TextField
        label={t('secondFactor.code')}
        name="one-time-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {errorLine}
      <Button type="submit" disabled={code.trim() === '' || confirm.isPending}>
        {t('secondFactor.confirm')}
      </Button>
    </form>
  );
}
