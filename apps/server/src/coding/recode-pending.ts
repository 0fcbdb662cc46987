import type { CodingKindName } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { activeDictionary, matchVerbatim } from '../coding-state/match-verbatim.ts';
import type { Database } from '../db/schema.ts';

/**
 * The queue's pending verbatims matched again against the active version and the synonym list (after
 * a first version or a synonym list is loaded, or an upgrade): those that now match are `auto`,
 * each audited. Verbatims sent back as a query wait for the site. Returns how many were coded.
 */
export async function recodePending(
  trx: Transaction<Database>,
  actor: AuditActor,
  studyId: number,
  kinds: readonly CodingKindName[],
  at: Date,
): Promise<number> {
  let coded = 0;
  for (const kind of kinds) {
    const dictionary = await activeDictionary(trx, studyId, kind);
    if (!dictionary) continue;
    const pending = await trx
      .selectFrom('coding_assignments')
      .select(['id', 'verbatim', 'version', 'site_id', 'subject_id'])
      .where('study_id', '=', studyId)
      .where('kind', '=', kind)
      .where('status', '=', 'pending')
      .execute();
    for (const row of pending) {
      const match = await matchVerbatim(trx, studyId, kind, dictionary.id, row.verbatim);
      if (!match) continue;
      await trx
        .updateTable('coding_assignments')
        .set({
          status: 'auto',
          code: match.code,
          path: JSON.stringify(match.path),
          dictionary_id: dictionary.id,
          coded_by: null,
          coded_at: at,
          version: row.version + 1,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
      await recordAudit(trx, actor, {
        type: 'coding.auto_coded',
        entityType: 'coding_assignment',
        entityId: row.id,
        studyId,
        siteId: row.site_id,
        subjectId: row.subject_id,
        before: { status: 'pending' },
        after: {
          verbatim: row.verbatim,
          status: 'auto',
          code: match.code,
          dictionaryVersion: dictionary.version,
        },
      });
      coded += 1;
    }
  }
  return coded;
}
