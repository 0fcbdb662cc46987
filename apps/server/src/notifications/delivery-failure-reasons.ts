import type { Language, Text } from '../http/language.ts';

/**
 * The reasons CDMS itself gives for a message it did not send. The outbox stores the code
 * (`last_error_code`), never the text, so the alarm log shows the reason in its reader's language
 * whoever the recipient was. What a mail server answered is stored as it came (`last_error`).
 */
export const DELIVERY_FAILURE_REASONS = {
  no_phone_number: { ko: '연락처(전화번호)가 없습니다.', en: 'No phone number on record.' },
  no_smtp: {
    ko: '메일 서버(SMTP)가 설정되지 않아 보내지 않았습니다.',
    en: 'Not sent: no SMTP server is configured.',
  },
  no_sms_gateway: {
    ko: '문자(SMS) 발송 서비스가 설정되지 않아 보내지 않았습니다.',
    en: 'Not sent: no SMS gateway is configured.',
  },
} as const satisfies Record<string, Text>;

export type DeliveryFailureCode = keyof typeof DELIVERY_FAILURE_REASONS;

/** A row's failure as its reader reads it: our reason in their language, else the server's answer. */
export function deliveryFailureText(
  row: { last_error_code: string | null; last_error: string | null },
  language: Language,
): string | null {
  const code = row.last_error_code as DeliveryFailureCode | null;
  if (code !== null && code in DELIVERY_FAILURE_REASONS) return DELIVERY_FAILURE_REASONS[code][language];
  return row.last_error;
}

/** A row's subject as its reader reads it: in their language when both were kept, else as sent. */
export function notificationSubjectText(
  row: { subject: string; subject_texts: Text | null },
  language: Language,
): string {
  return row.subject_texts?.[language] ?? row.subject;
}
