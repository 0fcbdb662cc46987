import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { AlertDialogProvider, useAlert } from '../components/alert-dialog.tsx';
import { ModalStackProvider } from '../components/modal-stack-provider.tsx';
import { PageLoading } from '../components/page-loading.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { AuthProvider, useAuth } from '../features/auth/components/auth-provider.tsx';
import {
  SessionTimerProvider,
  useSessionTimer,
} from '../features/session/components/session-timer-provider.tsx';
import { setSessionListeners } from '../lib/api-client.ts';

/**
 * The root route's element: the providers every page shares, inside the router because ending a
 * session navigates to the start page. Order matters: toasts and the modal stack first, then the
 * alert dialogs that live in the stack, then who is signed in, then the session timer it drives.
 * A page whose translations are still loading shows the loading state (never a blank page).
 */
export function RootLayout() {
  return (
    <ToastProvider>
      <ModalStackProvider>
        <AlertDialogProvider>
          <AuthProvider>
            <SessionWiring>
              <Suspense fallback={<PageLoading />}>
                <Outlet />
              </Suspense>
            </SessionWiring>
          </AuthProvider>
        </AlertDialogProvider>
      </ModalStackProvider>
    </ToastProvider>
  );
}

/** Connects the features: the timer counts down `me`'s session and ends it through auth. */
function SessionWiring({ children }: { children: React.ReactNode }) {
  const auth = useAuth();
  return (
    <SessionTimerProvider session={auth.me?.session ?? null} onExpire={() => void auth.endSession('timeout')}>
      <ApiSessionListeners />
      {children}
    </SessionTimerProvider>
  );
}

/**
 * The API client reports every new idle expiry (response header) and a session it could not renew
 * (401 twice): the first moves the timer, the second is spec §8's "login expired" (an alert, then
 * the start page); `endSession` ignores it when nobody was signed in. A 403
 * second_factor_enrolment_required reads `me` again, which then shows the enrolment page. A 403
 * training_required (issue 18) offers the training page named in its details and reads `me` again.
 */
function ApiSessionListeners() {
  const auth = useAuth();
  const timer = useSessionTimer();
  const alert = useAlert();
  const navigate = useNavigate();
  const { t } = useTranslation('errors');
  // Any write refused for missing training, wherever it was made: the server's words and the way there.
  async function askForTraining(message: string, trainingPath: string) {
    const go = await alert.confirm({
      title: t('trainingRequired.title'),
      message,
      confirmLabel: t('trainingRequired.goTo'),
    });
    if (go) void navigate(trainingPath);
  }
  const latest = useRef({ auth, timer, askForTraining });
  latest.current = { auth, timer, askForTraining };
  useEffect(() => {
    setSessionListeners({
      onSessionExpiry: (idleExpiresAt) => latest.current.timer.reportExpiry(idleExpiresAt),
      onSessionExpired: () => void latest.current.auth.endSession('expired'),
      onSecondFactorEnrolmentRequired: () => latest.current.auth.retry(),
      onTrainingRequired: (error, trainingPath) => {
        // The page believed the user free to write (a module changed, the gate turned on meanwhile):
        // read `me` again, so its banner and disabled saves follow the server (issue 51).
        latest.current.auth.retry();
        void latest.current.askForTraining(error.message, trainingPath);
      },
    });
    return () => setSessionListeners({});
  }, []);
  return null;
}
