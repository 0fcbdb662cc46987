import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { paths } from '../../../lib/paths.ts';
import { useAuth } from './auth-provider.tsx';
import styles from './landing-account.module.css';
import { LOGIN_MODAL } from './modal-names.ts';

// The landing page's first paint needs only the login button: the dialog behind it and the signed-in
// user's menu (Radix dialog and dropdown, account forms) load when they are first needed.
const LoginDialog = lazy(async () => ({ default: (await import('./login-dialog.tsx')).LoginDialog }));
const LandingAccountMenu = lazy(async () => ({
  default: (await import('./landing-account-menu.tsx')).LandingAccountMenu,
}));

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
  const { me, status } = useAuth();
  const modals = useModalStack();
  const location = useLocation();
  const navigate = useNavigate();
  const [returnTo, setReturnTo] = useState<string | null>(null);
  const loginOpen = modals.stack.includes(LOGIN_MODAL);
  // Mounted from its first opening on, so that it closes as a dialog does, not by vanishing.
  const [loginUsed, setLoginUsed] = useState(false);
  if (loginOpen && !loginUsed) setLoginUsed(true);

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
        {loginUsed ? (
          <Suspense fallback={null}>
            <LoginDialog
              onSignedIn={() => {
                modals.close(LOGIN_MODAL);
                // On to the work: the page that asked for the login, else the task list. Staying on the
                // start page after logging in left the user one more click from anything (issue 43 item 8).
                void navigate(returnTo ?? paths.taskList);
              }}
            />
          </Suspense>
        ) : null}
      </>
    );
  }

  return (
    <Suspense fallback={null}>
      <LandingAccountMenu me={me} />
    </Suspense>
  );
}
