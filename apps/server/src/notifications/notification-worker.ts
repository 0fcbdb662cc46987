import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { claimNotifications, deliverNotification, releaseNotifications } from './deliver-notifications.ts';
import type { EmailSender, SmsSender } from './senders.ts';

export interface NotificationWorker {
  /** Messages were queued: look now rather than at the next poll. */
  kick(): void;
  /** Stops after the message in hand; the rest of the claimed batch goes back to the queue. */
  stop(): Promise<void>;
}

export interface NotificationWorkerOptions {
  email: EmailSender;
  sms: SmsSender;
  /** How often an idle worker looks for due messages (another process may have queued them). */
  pollMs?: number;
  /** Messages claimed at a time. */
  batch?: number;
  onError?: (error: unknown) => void;
}

/**
 * The notification worker of one server process: claims due messages from the shared outbox and
 * delivers them one by one. Several processes each run one; the claim keeps them off each other's
 * messages, so each message leaves once.
 */
export function startNotificationWorker(
  db: Kysely<Database>,
  options: NotificationWorkerOptions,
): NotificationWorker {
  const pollMs = options.pollMs ?? 5000;
  const batch = options.batch ?? 20;
  let stopped = false;
  let wake = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      try {
        const claimed = await claimNotifications(db, batch);
        for (const [index, row] of claimed.entries()) {
          if (stopped) {
            // Stopping: what is still in hand goes back to the queue for another process.
            await releaseNotifications(db, claimed.slice(index));
            break;
          }
          await deliverNotification(db, row, options);
        }
        if (claimed.length === batch) continue;
      } catch (error) {
        options.onError?.(error);
      }
      if (stopped) break;
      await sleep(pollMs, undefined, { signal: wake.signal }).catch(() => undefined);
      wake = new AbortController();
    }
  })();
  return {
    kick: () => wake.abort(),
    stop: async () => {
      stopped = true;
      wake.abort();
      await loop;
      options.email.close?.();
    },
  };
}
