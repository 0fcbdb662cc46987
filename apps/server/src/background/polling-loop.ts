import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A background loop of one server process over a shared queue in the database (the export runner,
 * the notification worker): each turn takes what work there is; while a turn says there may be
 * more, the next one starts at once, otherwise the loop sleeps `pollMs` — another process may queue
 * work — or until kicked after work was queued here. A turn's error goes to `onError` and the loop
 * goes on after the sleep, so a database hiccup does not end it.
 */

export interface PollingLoop {
  /** Work was queued: look now rather than at the next poll. */
  kick(): void;
  /** Aborts the turn's `stopping` signal, ends the loop after the turn in hand and waits for it. */
  stop(): Promise<void>;
}

export interface PollingLoopOptions {
  pollMs: number;
  onError?: ((error: unknown) => void) | undefined;
  /** One turn; true when there may be more work at once. `stopping` is aborted when the loop stops. */
  turn: (stopping: AbortSignal) => Promise<boolean>;
  /** How long a turn that did work took, in seconds (for /metrics: the job duration histogram). */
  onWorkDone?: ((seconds: number) => void) | undefined;
}

export function startPollingLoop(options: PollingLoopOptions): PollingLoop {
  let stopped = false;
  let wake = new AbortController();
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      try {
        const started = performance.now();
        if (await options.turn(stopping.signal)) {
          options.onWorkDone?.((performance.now() - started) / 1000);
          continue;
        }
      } catch (error) {
        options.onError?.(error);
      }
      if (stopped) break;
      await sleep(options.pollMs, undefined, { signal: wake.signal }).catch(() => undefined);
      wake = new AbortController();
    }
  })();
  return {
    kick: () => wake.abort(),
    stop: async () => {
      stopped = true;
      stopping.abort();
      wake.abort();
      await loop;
    },
  };
}
