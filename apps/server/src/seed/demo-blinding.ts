import type { Kysely } from 'kysely';
import { unblindSubject } from '../blinding/unblind-subject.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';

export interface DemoBlindingInput {
  studyId: number;
  /** The investigator who breaks the blind, at their site. */
  investigator: string;
  siteId: number;
  password: string;
}

/**
 * Issue 51 item 3 in the living demo: one emergency unblinding at site 01, by its PI through the
 * command the API runs (password, reason, audit, the sponsor's notices), of the site's first
 * ongoing randomized subject. TMP-2026 keeps its setting: open-label to every role — its device
 * cannot be hidden from those who apply it, and the demo's other pages (the group in the randomization
 * form, data management's summary by arm) show that. The unblinding shows the record, the badge and
 * the sponsor's notices, as a blinded study would have them.
 */
export async function seedDemoBlinding(db: Kysely<Database>, input: DemoBlindingInput): Promise<void> {
  const subject = await db
    .selectFrom('subjects')
    .innerJoin('randomization_slots', 'randomization_slots.subject_id', 'subjects.id')
    .select('subjects.id')
    .where('subjects.study_id', '=', input.studyId)
    .where('subjects.site_id', '=', input.siteId)
    .where('subjects.status', '=', 'ongoing')
    .where('subjects.deleted_at', 'is', null)
    .orderBy('subjects.screening_number')
    .executeTakeFirst();
  if (!subject) throw new Error('the demo has no ongoing randomized subject at the site');
  const investigator = await personByEmail(db, input.investigator);
  await unblindSubject(db, investigator.principal, investigator.actor, {
    studyId: input.studyId,
    subjectId: subject.id,
    reason:
      '응급실 내원: 이식 부위 통증과 함께 전신 두드러기·호흡곤란(아나필락시스 의심). 응급 처치 약제 선택을 위해 배정군 확인 필요',
    password: input.password,
  });
}
