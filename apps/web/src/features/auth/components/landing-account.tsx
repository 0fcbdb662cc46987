import { DropdownMenu } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { AccountDetails } from './account-details.tsx';
import { useAuth } from './auth-provider.tsx';
import { CHANGE_PASSWORD_MODAL, ChangePasswordDialog } from './change-password-dialog.tsx';
import styles from './landing-account.module.css';
import { LOGIN_MODAL, LoginDialog } from './login-dialog.tsx';

export const ACCOUNT_MODAL = 'account';

/**
 * Navigation state that asks the landing page to open the login dialog (the login confirmation of
 * a protected page sends it), with the page to return to after login.
 */
export interface LoginRequestState {
  openLogin: true;
  returnTo?: string;
}

function isLoginRequest(state: unknown): state is LoginRequestState {
  return typeof state === 'object' && state !== null && (state as LoginRequestState).openLogin === true;
}

/** Top right of the landing page: a login button, or the account menu once logged in (spec §2). */
export function LandingAccount() {
  const { t } = useTranslation('auth');
  const { me, status, signOut } = useAuth();
  const modals = useModalStack();
  const location = useLocation();
  const navigate = useNavigate();
  const [returnTo, setReturnTo] = useState<string | null>(null);

  // Sent here by a protected page: open the login dialog once, then forget the request so that a
  // reload or a later logout does not open it again.
  useEffect(() => {
    if (!isLoginRequest(location.state) || status === 'loading') return;
    if (status !== 'authenticated') {
      setReturnTo(location.state.returnTo ?? null);
      if (!modals.isOpen(LOGIN_MODAL)) modals.open(LOGIN_MODAL);
    }
    void navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, status, modals, navigate]);

  if (status === 'loading') return null;

  if (!me) {
    return (
      <>
        <button type="button" className={styles.login} onClick={() => modals.open(LOGIN_MODAL)}>
          {t('login.button')}
        </button>
        <LoginDialog
          onSignedIn={() => {
            modals.close(LOGIN_MODAL);
            if (returnTo) void navigate(returnTo);
          }}
        />
      </>
    );
  }

  return (
    <>
      {/* Not modal: a modal menu would fight the dialog it opens over focus and pointer events. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={styles.trigger}>
          <span className={styles.avatar} aria-hidden="true">
            {me.user.name.slice(0, 1)}
          </span>
          <span>{t('menu.greeting', { name: me.user.name })}</span>
          <span aria-hidden="true" className={styles.caret}>
            ▾
          </span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={styles.menu} align="end" sideOffset={8}>
            <DropdownMenu.Label className={styles.menuLabel}>
              <strong>{me.user.name}</strong>
              <span>{me.user.email}</span>
            </DropdownMenu.Label>
            <DropdownMenu.Separator className={styles.separator} />
            <DropdownMenu.Item className={styles.item} onSelect={() => modals.open(ACCOUNT_MODAL)}>
              {t('menu.settings')}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={styles.item} onSelect={() => void signOut()}>
              {t('menu.logout')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Modal name={ACCOUNT_MODAL} title={t('account.title')}>
        <AccountDetails me={me} />
        <div className={styles.dialogActions}>
          <Button variant="secondary" onClick={() => modals.open(CHANGE_PASSWORD_MODAL)}>
            {t('password.change')}
          </Button>
          <Button variant="secondary" onClick={() => void signOut()}>
            {t('menu.logout')}
          </Button>
        </div>
      </Modal>
      <ChangePasswordDialog email={me.user.email} />
    </>
  );
}
