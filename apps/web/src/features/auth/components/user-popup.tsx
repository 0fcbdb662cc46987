import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SidePopup } from '../../../components/side-popup.tsx';
import { AccountDetails } from './account-details.tsx';
import { useAuth } from './auth-provider.tsx';
import { CHANGE_PASSWORD_MODAL, ChangePasswordDialog } from './change-password-dialog.tsx';
import {
  NOTIFICATION_PREFERENCES_MODAL,
  NotificationPreferencesDialog,
} from './notification-preferences-dialog.tsx';
import { SECOND_FACTOR_MODAL, SecondFactorDialog } from './second-factor-dialog.tsx';
import styles from './user-popup.module.css';

/** The header's user popup (prototype-spec §2): account details, change password, two-factor sign-in, notification e-mails, logout. */
export function UserPopup() {
  const { t } = useTranslation('auth');
  const { me, signOut } = useAuth();
  const modals = useModalStack();
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
            <AccountDetails me={me} />
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
      <ChangePasswordDialog email={me.user.email} />
      <SecondFactorDialog me={me} />
      <NotificationPreferencesDialog />
    </>
  );
}
