import type { Kysely } from 'kysely';
import { startPollingLoop } from '../background/polling-loop.ts';
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
  const loop = startPollingLoop({
    pollMs,
    onError: options.onError,
    turn: async (stopping) => {
      const claimed = await claimNotifications(db, batch);
      for (const [index, row] of claimed.entries()) {
        if (stopping.aborted) {
          // Stopping: what is still in hand goes back to the queue for another process.
          await releaseNotifications(db, claimed.slice(index));
          break;
        }
        await deliverNotification(db, row, options);
      }
      // A full batch: there may be more due at once.
      return claimed.length === batch;
    },
  });
  return {
    kick: loop.kick,
    stop: async () => {
      await loop.stop();
      options.email.close?.();
    },
  };
}
