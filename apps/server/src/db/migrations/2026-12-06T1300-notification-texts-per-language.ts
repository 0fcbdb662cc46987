import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The outbox is also the alarm log, read by a monitor or data manager in their own language, while
  // `subject` is what was sent, in the recipient's. `subject_texts` keeps the subject in both
  // languages ({ko, en}) for the log; rows written before it have none and show `subject` as sent.
  // `last_error_code` names a reason CDMS itself gives (no phone number, no SMTP, no SMS gateway),
  // rendered in the reader's language (notifications/delivery-failure-reasons.ts); `last_error`
  // keeps only what a mail server answered, which has no language of ours.
  await sql`alter table notifications add column subject_texts jsonb`.execute(db);
  await sql`alter table notifications add column last_error_code text`.execute(db);
  // The reasons written as text before: into their code.
  await sql`
    update notifications set last_error_code = case last_error
        when '연락처(전화번호)가 없습니다.' then 'no_phone_number'
        when 'No phone number on record.' then 'no_phone_number'
        when 'no SMTP configured' then 'no_smtp'
        when 'no SMS gateway configured' then 'no_sms_gateway'
      end,
      last_error = null
    where last_error in ('연락처(전화번호)가 없습니다.', 'No phone number on record.',
                         'no SMTP configured', 'no SMS gateway configured')`.execute(db);
}
