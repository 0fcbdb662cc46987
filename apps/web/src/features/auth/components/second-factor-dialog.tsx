import type { MeResponse, SecondFactorEnrolmentResponse } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppCodeField } from '../../../components/app-code-field.tsx';
import { Button } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  useConfirmSecondFactorEnrolment,
  useRefreshMe,
  useRegenerateRecoveryCodes,
  useStartSecondFactorEnrolment,
  useTurnOffSecondFactor,
} from '../api/second-factor.ts';
import { SECOND_FACTOR_MODAL } from './modal-names.ts';
import { RecoveryCodes } from './recovery-codes.tsx';
import styles from './second-factor-dialog.module.css';

/**
 * Two-factor sign-in from the user popup: enrolment (password → QR code → code → recovery codes), or,
 * once on, the recovery codes left, new recovery codes and turning it off (password and code each).
 */
export function SecondFactorDialog({ me }: { me: MeResponse }) {
  const { t } = useTranslation('auth');
  return (
    <Modal name={SECOND_FACTOR_MODAL} title={t('secondFactor.title')} width="sm">
      <SecondFactorPanel me={me} />
    </Modal>
  );
}

function SecondFactorPanel({ me }: { me: MeResponse }) {
  const { t } = useTranslation('auth');
  const { close } = useModalStack();
  const refreshMe = useRefreshMe();
  // Codes just made: shown until the user leaves this view (the modal's content unmounts on close).
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        doneLabel={t('recoveryCodes.done')}
        onDone={() => close(SECOND_FACTOR_MODAL)}
      />
    );
  }
  if (me.user.secondFactorEnrolled) return <EnrolledPanel me={me} onNewCodes={setCodes} />;
  return (
    <Enrolment
      onConfirmed={(recoveryCodes) => {
        setCodes(recoveryCodes);
        void refreshMe();
      }}
    />
  );
}

/** The account's password, asked again before its second factor is set up or changed. */
function PasswordAgainField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      label={t('secondFactor.password')}
      type="password"
      name="password"
      autoComplete="current-password"
      autoFocus
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** Enrolment: password again → QR code and key → first code; answers the recovery codes. */
export function Enrolment({ onConfirmed }: { onConfirmed: (recoveryCodes: string[]) => void }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
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
      onSuccess: (confirmed) => {
        toast(t('secondFactor.done'), 'success');
        onConfirmed(confirmed.recoveryCodes);
      },
      onError: (caught) => {
        setCode('');
        setError(errorText(caught));
      },
    });
  }

  const errorLine = <FormAlert message={error} className={styles.error} />;

  if (!enrolment) {
    return (
      <form className={styles.form} onSubmit={submitPassword} noValidate>
        <p>{t('secondFactor.intro')}</p>
        <PasswordAgainField value={password} onChange={setPassword} />
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
      <AppCodeField label={t('secondFactor.code')} value={code} onChange={setCode} autoFocus />
      {errorLine}
      <Button type="submit" disabled={code.trim() === '' || confirm.isPending}>
        {t('secondFactor.confirm')}
      </Button>
    </form>
  );
}

type Change = 'regenerate' | 'turnOff';

/** Two-factor sign-in is on: recovery codes left, and the two changes that need password and code. */
function EnrolledPanel({ me, onNewCodes }: { me: MeResponse; onNewCodes: (codes: string[]) => void }) {
  const { t } = useTranslation('auth');
  const [change, setChange] = useState<Change | null>(null);
  const mandatory = me.user.secondFactorMandatory;
  return (
    <div className={styles.form}>
      <p>{t('secondFactor.enrolled')}</p>
      <p className={styles.remaining} data-testid="recovery-codes-remaining">
        {t('secondFactor.codesRemaining', { count: me.user.recoveryCodesRemaining })}
      </p>
      {change ? (
        <PasswordAndCodeForm change={change} onNewCodes={onNewCodes} onCancel={() => setChange(null)} />
      ) : (
        <>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => setChange('regenerate')}>
              {t('secondFactor.regenerate')}
            </Button>
            <Button variant="danger" disabled={mandatory} onClick={() => setChange('turnOff')}>
              {t('secondFactor.turnOff')}
            </Button>
          </div>
          {mandatory ? <p className={styles.note}>{t('secondFactor.mandatory')}</p> : null}
        </>
      )}
    </div>
  );
}

function PasswordAndCodeForm({
  change,
  onNewCodes,
  onCancel,
}: {
  change: Change;
  onNewCodes: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const { close } = useModalStack();
  const regenerate = useRegenerateRecoveryCodes();
  const turnOff = useTurnOffSecondFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const pending = regenerate.isPending || turnOff.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = { password, code: code.replace(/\s/g, '') };
    if (request.password === '' || request.code === '' || pending) return;
    setError(null);
    const onError = (caught: unknown) => {
      setCode('');
      setError(errorText(caught));
    };
    if (change === 'regenerate') {
      regenerate.mutate(request, { onSuccess: (made) => onNewCodes(made.recoveryCodes), onError });
    } else {
      turnOff.mutate(request, {
        onSuccess: () => {
          close(SECOND_FACTOR_MODAL);
          toast(t('secondFactor.turnedOff'), 'success');
        },
        onError,
      });
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p>{change === 'regenerate' ? t('secondFactor.regenerateIntro') : t('secondFactor.turnOffIntro')}</p>
      <PasswordAgainField value={password} onChange={setPassword} />
      <AppCodeField label={t('secondFactor.code')} value={code} onChange={setCode} />
      <FormAlert message={error} className={styles.error} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onCancel}>
          {t('secondFactor.cancel')}
        </Button>
        <Button
          type="submit"
          variant={change === 'turnOff' ? 'danger' : 'primary'}
          disabled={password === '' || code.trim() === '' || pending}
        >
          {change === 'regenerate' ? t('secondFactor.regenerateSubmit') : t('secondFactor.turnOffSubmit')}
        </Button>
      </div>
    </form>
  );
}
