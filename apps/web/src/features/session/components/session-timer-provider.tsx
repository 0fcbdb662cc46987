import type { SessionInfo } from '@cdms/contract';
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { checkSession } from '../api/check-session.ts';
import { renewSession } from '../api/renew-session.ts';
import { clockOffsetMs, EXTEND_PROMPT_SECONDS, nextTimerAction, remainingSeconds } from '../session-clock.ts';

/** A session's end as the server reported it, with the browser's clock error at that moment. */
interface Expiry {
  expiresAtMs: number;
  offsetMs: number;
  idleTimeoutSeconds: number;
}

interface SessionTimerValue {
  /** Seconds until the server ends the session; null when nobody is signed in. */
  remaining: number | null;
  /** Extends the session (POST /api/auth/renew). */
  extend: () => Promise<void>;
  /** A response said when the session now ends (header x-session-idle-expires-at). */
  reportExpiry: (idleExpiresAt: Date) => void;
}

const SessionTimerContext = createContext<SessionTimerValue | null>(null);

const TICK_MS = 1000;
/** Below this the server's answer "still alive" is clock noise, not another tab's activity. */
const ALIVE_MARGIN_SECONDS = 5;

function expiryOf(session: SessionInfo): Expiry {
  return {
    expiresAtMs: Date.parse(session.idleExpiresAt),
    offsetMs: clockOffsetMs(session.serverTime, Date.now()),
    idleTimeoutSeconds: session.idleTimeoutSeconds,
  };
}

/**
 * The session timer of prototype-spec §4, driven by the server: it counts down to the expiry the
 * server last reported (login, me, renew, and the expiry header of every authenticated response),
 * asks once at 5 minutes whether to extend, and at 0 calls `onExpire` (automatic logout).
 */
export function SessionTimerProvider({
  session,
  onExpire,
  children,
}: {
  /** The session of the signed-in user, null when signed out. */
  session: SessionInfo | null;
  onExpire: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('session');
  const { confirm } = useAlert();
  const toast = useToast();
  const [expiry, setExpiry] = useState<Expiry | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const promptShown = useRef(false);
  const busy = useRef(false);
  const onExpireRef = useRef(onExpire);
  onExpireRef.current = onExpire;

  const sync = useCallback((info: SessionInfo) => {
    setExpiry(expiryOf(info));
    setNow(Date.now());
  }, []);

  // A new session object means a fresh answer from the server (its serverTime is current).
  useEffect(() => {
    if (session) {
      sync(session);
    } else {
      setExpiry(null);
    }
    promptShown.current = false;
    busy.current = false;
  }, [session, sync]);

  const signedIn = expiry !== null;
  useEffect(() => {
    if (!signedIn) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [signedIn]);

  const remaining = expiry
    ? remainingSeconds(expiry.expiresAtMs, now, expiry.offsetMs, expiry.idleTimeoutSeconds)
    : null;

  const reportExpiry = useCallback((idleExpiresAt: Date) => {
    const expiresAtMs = idleExpiresAt.getTime();
    if (!Number.isFinite(expiresAtMs)) return;
    // Only while signed in: the login response reports it before `session` arrives.
    setExpiry((current) => (current ? { ...current, expiresAtMs } : current));
  }, []);

  const extend = useCallback(async () => {
    try {
      sync(await renewSession());
      toast(t('extend.done'), 'success');
    } catch (error) {
      // 401: the API client has already told the user that the login expired.
      if (error instanceof ApiError && error.kind === 'unauthenticated') return;
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }, [sync, t, toast]);

  /** The session as the server sees it now: null if over, undefined if the server cannot be asked. */
  const serverSession = useCallback(async (): Promise<SessionInfo | null | undefined> => {
    try {
      return await checkSession();
    } catch {
      return undefined;
    }
  }, []);

  useEffect(() => {
    if (remaining === null || busy.current) return;
    const step = nextTimerAction(remaining, promptShown.current);
    promptShown.current = step.promptShown;
    if (step.action === 'none') return;
    busy.current = true;
    void (async () => {
      const live = await serverSession();
      const liveSeconds = live
        ? remainingSeconds(Date.parse(live.idleExpiresAt), Date.parse(live.serverTime), 0)
        : 0;
      // Over already (another tab logged out, or the server ended it): no point asking.
      if (step.action === 'expire' || live === null) {
        if (live && liveSeconds > ALIVE_MARGIN_SECONDS) {
          sync(live); // another tab kept the session alive
          busy.current = false;
        } else {
          // Stays busy until the session is gone (`session` turns null), so it ends only once.
          onExpireRef.current();
        }
        return;
      }
      if (live && liveSeconds > EXTEND_PROMPT_SECONDS) {
        sync(live); // extended elsewhere: no need to ask
        busy.current = false;
        return;
      }
      busy.current = false;
      const minutes = Math.max(1, Math.ceil(remaining / 60));
      const yes = await confirm({
        name: 'session-extend',
        title: t('extend.title'),
        message: t('extend.message', { minutes }),
        confirmLabel: t('extend.confirm'),
        cancelLabel: t('extend.cancel'),
      });
      if (yes) await extend();
    })();
  }, [remaining, serverSession, sync, confirm, extend, t]);

  const value = useMemo(() => ({ remaining, extend, reportExpiry }), [remaining, extend, reportExpiry]);
  return <SessionTimerContext value={value}>{children}</SessionTimerContext>;
}

export function useSessionTimer(): SessionTimerValue {
  const value = use(SessionTimerContext);
  if (!value) throw new Error('useSessionTimer() needs a <SessionTimerProvider> above it.');
  return value;
}
