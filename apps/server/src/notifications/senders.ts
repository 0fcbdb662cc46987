import nodemailer from 'nodemailer';
import type { DeliveryFailureCode } from './delivery-failure-reasons.ts';

/**
 * What a sender did with one message: delivered, or deliberately not sent, with the reason's code
 * (rendered in each reader's language: delivery-failure-reasons.ts). Errors throw.
 */
export type SendOutcome = { sent: true } | { sent: false; reason: DeliveryFailureCode };

export interface EmailSender {
  send(message: { to: string; subject: string; text: string }): Promise<SendOutcome>;
  close?(): void;
}

/** SMS go through a gateway a site contracts; any gateway plugs in behind this interface. */
export interface SmsSender {
  send(message: { to: string; text: string }): Promise<SendOutcome>;
}

type Log = (message: string, fields: Record<string, unknown>) => void;

/** E-mail over SMTP (`SMTP_URL`, e.g. `smtp://user:password@mail.example.org:587`), from `SMTP_FROM`. */
export function smtpEmailSender(smtpUrl: string, from: string): EmailSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
      return { sent: true };
    },
    close: () => transport.close(),
  };
}

/**
 * Without `SMTP_URL`: the message is written to the log and marked "not sent: no SMTP configured" —
 * never silently dropped, and the alarm log says so.
 */
export function logOnlyEmailSender(log: Log): EmailSender {
  return {
    async send({ to, subject }) {
      log('e-mail not sent: no SMTP configured', { to, subject });
      return { sent: false, reason: 'no_smtp' };
    },
  };
}

/** The default SMS sender: no gateway, the text is logged and the message marked not sent. */
export function logOnlySmsSender(log: Log): SmsSender {
  return {
    async send({ to, text }) {
      log('SMS not sent: no SMS gateway configured', { to, length: text.length });
      return { sent: false, reason: 'no_sms_gateway' };
    },
  };
}
