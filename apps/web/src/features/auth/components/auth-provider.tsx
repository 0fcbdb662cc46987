import type {
  LoginRequest,
  MeResponse,
  SecondFactorLoginRequest,
  SecondFactorRequiredResponse,
} from '@cdms/contract';
import { type Query, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useCallback, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError, setCsrfToken } from '../../../lib/api-client.ts';
import { meQueryKey, useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { logout } from '../api/logout.ts';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous' | 'error';

/** Why a session ended without the user logging out. */
export type SessionEndReason =
  /** The server refused the session (401 even after renewing): spec §8 "login expired". */
  | 'expired'
  /** The session timer ran out (spec §4 "automatic logout after session expiry"). */
  | 'timeout';

interface AuthContextValue {
  me: MeResponse | null;
  status: AuthStatus;
  error: Error | null;
  /** True while an ending session takes the user to the start page (no login prompt meanwhile). */
  leaving: boolean;
  retry: () => void;
  /** Logs in; throws the ApiError to show in the login form. */
  signIn: (request: LoginRequest) => Promise<MeResponse | SecondFactorRequiredResponse>;
  /** The code step of a two-step login; throws the ApiError to show in the login form. */
  signInSecondFactor: (request: SecondFactorLoginRequest) => Promise<MeResponse>;
  signOut: () => Promise<void>;
  endSession: (reason: SessionEndReason) => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function isMeQuery(query: Query): boolean {
  return query.queryKey[0] === meQueryKey[0] && query.queryKey[1] === meQueryKey[1];
}

/**
 * Who is signed in, for the whole app: the `me` query (GET /api/auth/me) plus log in, log out and
 * the end of a session. Lives inside the router (it navigates to the start page when a session
 * ends) and inside the modal, alert and toast providers (it closes and shows dialogs).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { alert } = useAlert();
  const toast = useToast();
  const { closeAll } = useModalStack();
  const query = useMe();
  const me = query.data ?? null;
  const [leaving, setLeaving] = useState(false);

  // Callbacks below run from API-client listeners and timers: they read the latest values here.
  const meRef = useRef(me);
  meRef.current = me;
  const leavingRef = useRef(false);

  /** Back to `/` with nothing of the old session left: no dialogs, no cached data, no CSRF token. */
  const leave = useCallback(async () => {
    leavingRef.current = true;
    // At once, not at React's next turn: the signed-in page must be gone (the sign-in wall shows the
    // loading state while leaving) before its cached data is dropped below, or its queries would
    // fetch again with the session already ended, and be refused.
    flushSync(() => setLeaving(true));
    try {
      closeAll();
      setCsrfToken(null);
      // Navigate first: the protected page must be gone before `me` turns null, or it would ask
      // the user to log in on the way out.
      await navigate(paths.landing, { replace: true });
      queryClient.removeQueries({ predicate: (cached) => !isMeQuery(cached) });
      queryClient.setQueryData(meQueryKey, null);
    } finally {
      leavingRef.current = false;
      setLeaving(false);
    }
  }, [closeAll, navigate, queryClient]);

  const signedIn = useCallback(
    (me: MeResponse) => {
      // A different account may have been signed in in this tab: drop everything cached for it.
      queryClient.removeQueries({ predicate: (cached) => !isMeQuery(cached) });
      queryClient.setQueryData(meQueryKey, me);
      return me;
    },
    [queryClient],
  );

  // The login calls load with the login form (they check answers with the contract's schemas),
  // not with every page.
  const signIn = useCallback(
    async (request: LoginRequest) => {
      const { login } = await import('../api/login.ts');
      const answer = await login(request);
      return 'secondFactorRequired' in answer ? answer : signedIn(answer);
    },
    [signedIn],
  );

  const signInSecondFactor = useCallback(
    async (request: SecondFactorLoginRequest) => {
      const { loginSecondFactor } = await import('../api/login.ts');
      return signedIn(await loginSecondFactor(request));
    },
    [signedIn],
  );

  const signOut = useCallback(async () => {
    if (leavingRef.current) return;
    try {
      await logout();
    } catch (error) {
      // Logging out of a session the server no longer knows is fine; anything else is shown and the
      // user stays signed in (the cookie is still valid).
      if (!(error instanceof ApiError && error.kind === 'unauthenticated')) {
        toast(error instanceof Error ? error.message : String(error), 'error');
        return;
      }
    }
    await leave();
    toast(t('logout.done'));
  }, [leave, t, toast]);

  const endSession = useCallback(
    async (reason: SessionEndReason) => {
      // Nobody was signed in (a first visit answers 401 too), or the end is already under way.
      if (!meRef.current || leavingRef.current) return;
      leavingRef.current = true;
      if (reason === 'timeout') {
        // The server has ended the session by now; logging out also clears the cookie.
        await logout().catch(() => undefined);
      }
      await leave();
      await alert({
        name: 'session-ended',
        title: t(`ended.${reason}.title`),
        message: t(`ended.${reason}.message`),
      });
    },
    [alert, leave, t],
  );

  const status: AuthStatus = query.isPending
    ? 'loading'
    : me
      ? 'authenticated'
      : query.isError
        ? 'error'
        : 'anonymous';

  const { refetch } = query;
  const value = useMemo<AuthContextValue>(
    () => ({
      me,
      status,
      error: query.error,
      leaving,
      retry: () => void refetch(),
      signIn,
      signInSecondFactor,
      signOut,
      endSession,
    }),
    [me, status, query.error, leaving, refetch, signIn, signInSecondFactor, signOut, endSession],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth() needs an <AuthProvider> above it.');
  return value;
}
