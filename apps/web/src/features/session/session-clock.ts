/**
 * The arithmetic of the session timer (prototype-spec §4): the server decides when the session
 * ends; the browser only counts down to that instant, corrected for the difference between its own
 * clock and the server's.
 */

/** At this many seconds left the user is asked once whether to extend the session. */
export const EXTEND_PROMPT_SECONDS = 300;

/** How far the browser's clock is behind the server's, from a response's `serverTime`. */
export function clockOffsetMs(serverTime: string, receivedAtMs: number): number {
  const server = Date.parse(serverTime);
  return Number.isFinite(server) ? server - receivedAtMs : 0;
}

/**
 * Whole seconds until the server ends the session, never negative. Rounded up so the display
 * reaches 00:00 only when the session really is over, and never above `maxSeconds` (the idle
 * timeout): milliseconds of clock-offset error would otherwise show 50:01 for a fresh session.
 */
export function remainingSeconds(
  idleExpiresAtMs: number,
  nowMs: number,
  offsetMs: number,
  maxSeconds = Number.POSITIVE_INFINITY,
): number {
  const left = idleExpiresAtMs - (nowMs + offsetMs);
  return left <= 0 ? 0 : Math.min(maxSeconds, Math.ceil(left / 1000));
}

/** 3000 → "50:00", 65 → "01:05": minutes are not wrapped into hours. */
export function formatCountdown(seconds: number): string {
  const safe = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(safe / 60);
  return `${String(minutes).padStart(2, '0')}:${String(safe % 60).padStart(2, '0')}`;
}

export type TimerPhase = 'running' | 'warning' | 'expired';

export function timerPhase(seconds: number): TimerPhase {
  if (seconds <= 0) return 'expired';
  if (seconds <= EXTEND_PROMPT_SECONDS) return 'warning';
  return 'running';
}

/**
 * What the timer should do on a tick, given the seconds left and whether the extension prompt was
 * already shown in this warning period: the prompt appears once, and again only after the session
 * was extended past the threshold and came back down.
 */
export function nextTimerAction(
  seconds: number,
  promptShown: boolean,
): { action: 'none' | 'prompt' | 'expire'; promptShown: boolean } {
  const phase = timerPhase(seconds);
  if (phase === 'expired') return { action: 'expire', promptShown };
  if (phase === 'warning')
    return promptShown ? { action: 'none', promptShown } : { action: 'prompt', promptShown: true };
  return { action: 'none', promptShown: false };
}
