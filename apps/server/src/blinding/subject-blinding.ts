import type { SubjectBlinding } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { mayKnowGroup } from './may-know-group.ts';

/**
 * A subject's blinding for the subject page: whether its blind was broken (anyone reading the subject
 * sees that), its group only for a reader who may know it (`mayKnowGroup`), and whether this reader
 * may break the blind now (the PI of its site, a randomized subject not unblinded yet).
 */
export async function subjectBlinding(
  db: Kysely<Database>,
  principal: Principal,
  subject: { id: number; study_id: number; site_id: number },
): Promise<SubjectBlinding> {
  const slot = await db
    .selectFrom('randomization_slots')
    .select('treatment_group')
    .where('subject_id', '=', subject.id)
    .executeTakeFirst();
  const unblinding = await db
    .selectFrom('subject_unblindings')
    .select('unblinded_at')
    .where('subject_id', '=', subject.id)
    .executeTakeFirst();
  const mayKnow = slot !== undefined && (await mayKnowGroup(db, principal, subject.study_id, subject));
  return {
    unblinded: unblinding !== undefined,
    unblindedAt: unblinding?.unblinded_at.toISOString() ?? null,
    group: mayKnow && slot ? slot.treatment_group : null,
    mayBreak:
      slot !== undefined &&
      unblinding === undefined &&
      can(principal, 'blind.break', { studyId: subject.study_id, siteId: subject.site_id }),
  };
}
