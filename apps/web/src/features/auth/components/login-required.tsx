import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { paths } from '../../../lib/paths.ts';
import type { LoginRequestState } from './landing-account.tsx';

const LOGIN_REQUIRED_MODAL = 'login-required';

/**
 * The login confirmation of prototype-spec §6, shown by a protected page without a session:
 * "log in" goes to the start page and opens the login dialog there (coming back here after login);
 * "cancel" goes to the start page.
 */
export function LoginRequired({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation('auth');
  const { confirm } = useAlert();
  const { isOpen, close } = useModalStack();
  const navigate = useNavigate();

  useEffect(() => {
    // The dialog has a name, so a second run of this effect (StrictMode) shares the open one.
    let active = true;
    void confirm({
      name: LOGIN_REQUIRED_MODAL,
      title: t('required.title'),
      message: t('required.message'),
      confirmLabel: t('required.confirm'),
      cancelLabel: t('required.cancel'),
    }).then((login) => {
      if (!active) return;
      const state: LoginRequestState | null = login ? { openLogin: true, returnTo } : null;
      void navigate(paths.landing, { replace: true, state });
    });
    return () => {
      active = false;
      if (isOpen(LOGIN_REQUIRED_MODAL)) close(LOGIN_REQUIRED_MODAL);
    };
  }, [confirm, isOpen, close, navigate, returnTo, t]);

  return null;
}
