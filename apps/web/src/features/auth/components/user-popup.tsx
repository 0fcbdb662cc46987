import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SidePopup } from '../../../components/side-popup.tsx';
import { useAuth } from './auth-provider.tsx';
import { CHANGE_PASSWORD_MODAL, NOTIFICATION_PREFERENCES_MODAL, SECOND_FACTOR_MODAL } from './modal-names.ts';
import styles from './user-popup.module.css';

// The account details (with the contact editor and its zod schema) load when the popup first opens.
const AccountDetails = lazy(async () => ({
  default: (await import('./account-details.tsx')).AccountDetails,
}));

// The popup's dialogs (Radix Dialog, the account forms) load when one is first opened: every
// signed-in page has this header, and few of its visits change a password (issue 43 item 12).
const ChangePasswordDialog = lazy(async () => ({
  default: (await import('./change-password-dialog.tsx')).ChangePasswordDialog,
}));
const SecondFactorDialog = lazy(async () => ({
  default: (await import('./second-factor-dialog.tsx')).SecondFactorDialog,
}));
const NotificationPreferencesDialog = lazy(async () => ({
  default: (await import('./notification-preferences-dialog.tsx')).NotificationPreferencesDialog,
}));

/**
 * Whether the modal `name` has been opened since this component mounted: from then on its dialog
 * stays mounted, so that it closes as a dialog does, not by vanishing (as the landing's login dialog).
 */
function useOpenedOnce(name: string): boolean {
  const { stack } = useModalStack();
  const [opened, setOpened] = useState(false);
  if (!opened && stack.includes(name)) setOpened(true);
  return opened || stack.includes(name);
}

/** The header's user popup (prototype-spec §2): account details, change password, two-factor sign-in, notification e-mails, logout. */
export function UserPopup() {
  const { t } = useTranslation('auth');
  const { me, signOut } = useAuth();
  const modals = useModalStack();
  const changePasswordOpened = useOpenedOnce(CHANGE_PASSWORD_MODAL);
  const secondFactorOpened = useOpenedOnce(SECOND_FACTOR_MODAL);
  const notificationPreferencesOpened = useOpenedOnce(NOTIFICATION_PREFERENCES_MODAL);
  if (!me) return null;
  return (
    <>
      <SidePopup
        id="user-popup"
        title={t('account.title')}
        trigger={
          <button type="button" className={styles.trigger}>
            <span className={styles.avatar} aria-hidden="true">
              {me.user.name.slice(0, 1)}
            </span>
            <span className={styles.name}>{t('menu.greeting', { name: me.user.name })}</span>
          </button>
        }
      >
        {(close) => (
          <>
            <Suspense fallback={null}>
              <AccountDetails me={me} />
            </Suspense>
            <div className={styles.actions}>
              <Button
                variant="secondary"
                onClick={() => {
                  close();
                  modals.open(CHANGE_PASSWORD_MODAL);
                }}
              >
                {t('password.change')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  close();
                  modals.open(SECOND_FACTOR_MODAL);
                }}
              >
                {t('secondFactor.open')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  close();
                  modals.open(NOTIFICATION_PREFERENCES_MODAL);
                }}
              >
                {t('notifications.open')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  close();
                  void signOut();
                }}
              >
                {t('menu.logout')}
              </Button>
            </div>
          </>
        )}
      </SidePopup>
      {/* Outside the popup: the popup closes when the dialog takes the focus. */}
      {/* A boundary each: one dialog loading for the first time does not hide another. */}
      {changePasswordOpened ? (
        <Suspense fallback={null}>
          <ChangePasswordDialog email={me.user.email} />
        </Suspense>
      ) : null}
      {secondFactorOpened ? (
        <Suspense fallback={null}>
          <SecondFactorDialog me={me} />
        </Suspense>
      ) : null}
      {notificationPreferencesOpened ? (
        <Suspense fallback={null}>
          <NotificationPreferencesDialog />
        </Suspense>
      ) : null}
    </>
  );
}
