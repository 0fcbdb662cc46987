import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { LanguageToggle } from '../../../components/language-toggle.tsx';
import { useRefreshMe } from '../api/second-factor.ts';
import { useAuth } from './auth-provider.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';
import { Enrolment } from './second-factor-dialog.tsx';
import styles from './second-factor-enrolment-required.module.css';

/**
 * The whole page for a user whom the system setting requires to have a second factor and who has
 * none (the server answers 403 to everything else meanwhile): it cannot be closed, only completed
 * or left by logging out. After the recovery codes have been shown, `me` is read again and the
 * app opens normally.
 */
export function SecondFactorEnrolmentRequired() {
  const { t } = useTranslation('auth');
  const { me, signOut } = useAuth();
  const refreshMe = useRefreshMe();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="second-factor-required-title">
        <div className={styles.top}>
          <h1 id="second-factor-required-title" className={styles.title}>
            {t('enrolmentRequired.title')}
          </h1>
          <LanguageToggle tone="dark" />
        </div>
        {codes ? (
          <RecoveryCodes
            codes={codes}
            doneLabel={t('enrolmentRequired.continue')}
            onDone={() => void refreshMe()}
          />
        ) : (
          <>
            <p className={styles.message}>
              {t('enrolmentRequired.message', { email: me?.user.email ?? '' })}
            </p>
            <Enrolment onConfirmed={setCodes} />
          </>
        )}
        <Button variant="ghost" onClick={() => void signOut()}>
          {t('menu.logout')}
        </Button>
      </section>
    </main>
  );
}
