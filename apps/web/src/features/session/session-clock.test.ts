import { describe, expect, it } from 'vitest';
import {
  clockOffsetMs,
  EXTEND_PROMPT_SECONDS,
  formatCountdown,
  nextTimerAction,
  remainingSeconds,
  timerPhase,
} from './session-clock.ts';

describe('remainingSeconds', () => {
  const expires = Date.parse('2026-05-01T10:50:00Z');

  it('counts whole seconds up to the server expiry', () => {
    expect(remainingSeconds(expires, Date.parse('2026-05-01T10:00:00Z'), 0)).toBe(3000);
  });

  it('rounds partial seconds up so 00:00 means over', () => {
    expect(remainingSeconds(expires, expires - 1, 0)).toBe(1);
    expect(remainingSeconds(expires, expires - 1001, 0)).toBe(2);
  });

  it('never shows more than the idle timeout', () => {
    expect(remainingSeconds(expires, Date.parse('2026-05-01T09:59:59.990Z'), 0, 3000)).toBe(3000);
    expect(remainingSeconds(expires, Date.parse('2026-05-01T09:59:59.990Z'), 0)).toBe(3001);
  });

  it('is never negative', () => {
    expect(remainingSeconds(expires, expires, 0)).toBe(0);
    expect(remainingSeconds(expires, expires + 60_000, 0)).toBe(0);
  });

  it('corrects a browser clock that runs behind or ahead of the server', () => {
    // The server said 10:00:00 when the browser read 09:58:00: the browser is two minutes behind.
    const offset = clockOffsetMs('2026-05-01T10:00:00Z', Date.parse('2026-05-01T09:58:00Z'));
    expect(offset).toBe(120_000);
    expect(remainingSeconds(expires, Date.parse('2026-05-01T09:58:00Z'), offset)).toBe(3000);
    const ahead = clockOffsetMs('2026-05-01T10:00:00Z', Date.parse('2026-05-01T10:05:00Z'));
    expect(remainingSeconds(expires, Date.parse('2026-05-01T10:05:00Z'), ahead)).toBe(3000);
  });

  it('treats an unreadable server time as no offset', () => {
    expect(clockOffsetMs('garbage', 123)).toBe(0);
  });
});

describe('formatCountdown', () => {
  it('shows mm:ss with minutes beyond an hour kept as minutes', () => {
    expect(formatCountdown(3000)).toBe('50:00');
    expect(formatCountdown(3725)).toBe('62:05');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(9)).toBe('00:09');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-4)).toBe('00:00');
  });
});

describe('timerPhase and nextTimerAction', () => {
  it('warns from the prompt threshold down and expires at zero', () => {
    expect(timerPhase(EXTEND_PROMPT_SECONDS + 1)).toBe('running');
    expect(timerPhase(EXTEND_PROMPT_SECONDS)).toBe('warning');
    expect(timerPhase(1)).toBe('warning');
    expect(timerPhase(0)).toBe('expired');
  });

  it('prompts once per warning period', () => {
    let state = nextTimerAction(301, false);
    expect(state).toEqual({ action: 'none', promptShown: false });
    state = nextTimerAction(300, state.promptShown);
    expect(state).toEqual({ action: 'prompt', promptShown: true });
    state = nextTimerAction(299, state.promptShown);
    expect(state).toEqual({ action: 'none', promptShown: true });
    state = nextTimerAction(120, state.promptShown);
    expect(state.action).toBe('none');
  });

  it('prompts again after an extension brought the session back above the threshold', () => {
    let state = nextTimerAction(300, false);
    expect(state.action).toBe('prompt');
    state = nextTimerAction(3000, state.promptShown);
    expect(state).toEqual({ action: 'none', promptShown: false });
    state = nextTimerAction(250, state.promptShown);
    expect(state.action).toBe('prompt');
  });

  it('expires at zero whether or not the prompt was shown', () => {
    expect(nextTimerAction(0, false).action).toBe('expire');
    expect(nextTimerAction(0, true).action).toBe('expire');
  });
});
