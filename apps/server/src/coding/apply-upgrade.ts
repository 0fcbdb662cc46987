import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { compareWithVersion } from './compare-versions.ts';
import { recodePending } from './recode-pending.ts';

/**
 * Switches the study to a loaded version of a kind and recodes what the preview showed, in one
 * transaction: codes no longer current (or gone) go back to the queue as `pending`; moved PTs/SOCs
 * and changed ATC codes take the new version's path; the rest keep their code under the new version.
 * Pending verbatims are then matched against it. Each recoded verbatim and the switch are audited.
 */
export async function applyUpgrade(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  dictionaryId: number,
  at = new Date(),
): Promise<{ version: string; recoded: number; sentToQueue: number; autoCoded: number }> {
  return inTransaction(db, async (trx) => {
    const comparison = await compareWithVersion(trx, studyId, dictionaryId);
    const { dictionary } = comparison;
    if (dictionary.active) throw new AppError(409, 'coding_already_active');
    await trx
      .updateTable('coding_dictionaries')
      .set({ active: false })
      .where('study_id', '=', studyId)
      .where('kind', '=', dictionary.kind)
      .where('active', '=', true)
      .execute();
    await trx
      .updateTable('coding_dictionaries')
      .set({ active: true })
      .where('id', '=', dictionary.id)
      .execute();
    let recoded = 0;
    let sentToQueue = 0;
    for (const row of comparison.rows) {
      const back = row.change === 'code_missing' || row.change === 'llt_not_current';
      await trx
        .updateTable('coding_assignments')
        .set(
          back
            ? {
                status: 'pending',
                code: null,
                path: null,
                dictionary_id: null,
                coded_by: null,
                coded_at: null,
              }
            : { path: JSON.stringify(row.after), dictionary_id: dictionary.id },
        )
        .set({ version: row.version + 1, updated_at: at })
        .where('id', '=', row.id)
        .execute();
      if (row.change === null) continue;
      if (back) sentToQueue += 1;
      else recoded += 1;
      await recordAudit(trx, actor, {
        type: 'coding.recoded',
        entityType: 'coding_assignment',
        entityId: row.id,
        studyId,
        siteId: row.site_id,
        subjectId: row.subject_id,
        before: { code: row.code, dictionaryVersion: comparison.from },
        after: {
          verbatim: row.verbatim,
          kind: row.change,
          status: back ? 'pending' : undefined,
          code: back ? null : row.code,
          dictionaryVersion: dictionary.version,
        },
      });
    }
    const autoCoded = await recodePending(trx, actor, studyId, [dictionary.kind], at);
    await recordAudit(trx, actor, {
      type: 'coding.dictionary_upgraded',
      entityType: 'coding_dictionary',
      entityId: dictionary.id,
      studyId,
      before: { version: comparison.from },
      after: { kind: dictionary.kind, version: dictionary.version, recoded, sentToQueue, autoCoded },
    });
    return { version: dictionary.version, recoded, sentToQueue, autoCoded };
  });
}
