import { normalizeVerbatim } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { AfterChange, FormChange } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { type CodingTarget, codingTargets, verbatimsOf } from './coding-targets.ts';
import { activeDictionary, matchVerbatim } from './match-verbatim.ts';

/**
 * After a save of a form the study codes (its adverse events' or medications' group), each row whose
 * verbatim changed is coded again: an exact or synonym match of the active dictionary → `auto`, else
 * `pending` in the coder's queue; a row that lost its verbatim loses its assignment. In the save's
 * transaction, each change audited (`coding.auto_coded`, `coding.queued`, `coding.removed`).
 */
export const codeVerbatimsAfterChange: AfterChange = async (change) => {
  const targets = codingTargets(change.definition).filter(
    (target) =>
      target.formKey === change.formKey &&
      target.visitKey === change.visitKey &&
      change.changedKeys.includes(target.groupKey),
  );
  for (const target of targets) await syncTarget(change, target);
};

async function syncTarget(change: FormChange, target: CodingTarget): Promise<void> {
  const { trx, subject, instance, actor, at } = change;
  const verbatims = verbatimsOf(change.after, target);
  const existing = await trx
    .selectFrom('coding_assignments')
    .selectAll()
    .where('form_instance_id', '=', instance.id)
    .where('group_key', '=', target.groupKey)
    .where('item_key', '=', target.itemKey)
    .execute();
  const byRow = new Map(existing.map((row) => [row.row_index, row]));
  for (const row of existing) {
    if (verbatims.has(row.row_index)) continue;
    await trx.deleteFrom('coding_assignments').where('id', '=', row.id).execute();
    await audit(
      trx,
      actor,
      'coding.removed',
      row.id,
      subject,
      { verbatim: row.verbatim, status: null },
      {
        verbatim: row.verbatim,
        status: row.status,
      },
    );
  }
  for (const [rowIndex, verbatim] of verbatims) {
    const before = byRow.get(rowIndex);
    if (before && normalizeVerbatim(before.verbatim) === normalizeVerbatim(verbatim)) continue;
    const assignment = {
      study_id: subject.study_id,
      site_id: subject.site_id,
      subject_id: subject.id,
      form_instance_id: instance.id,
      visit_key: target.visitKey,
      form_key: target.formKey,
      group_key: target.groupKey,
      row_index: rowIndex,
      item_key: target.itemKey,
      kind: target.kind,
    };
    const result = await autoCode(trx, subject.study_id, target, verbatim, at);
    const written = before
      ? await trx
          .updateTable('coding_assignments')
          .set({ ...result, verbatim, query_id: null, updated_at: at, version: before.version + 1 })
          .where('id', '=', before.id)
          .returning('id')
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('coding_assignments')
          .values({ ...assignment, ...result, verbatim, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
    await audit(
      trx,
      actor,
      result.status === 'auto' ? 'coding.auto_coded' : 'coding.queued',
      written.id,
      subject,
      before ? { verbatim: before.verbatim, status: before.status, code: before.code } : null,
      {
        verbatim,
        status: result.status,
        code: result.code,
        itemPath: `${target.visitKey}.${target.formKey}.${target.groupKey}[${rowIndex}].${target.itemKey}`,
      },
    );
  }
}

/** What a verbatim's assignment holds after auto-coding: a code of the active version, or pending. */
export async function autoCode(
  trx: Transaction<Database>,
  studyId: number,
  target: Pick<CodingTarget, 'kind'>,
  verbatim: string,
  at: Date,
) {
  const dictionary = await activeDictionary(trx, studyId, target.kind);
  const match = dictionary ? await matchVerbatim(trx, studyId, target.kind, dictionary.id, verbatim) : null;
  return match
    ? {
        status: 'auto' as const,
        code: match.code,
        path: JSON.stringify(match.path),
        dictionary_id: match.dictionaryId,
        coded_by: null,
        coded_at: at,
      }
    : {
        status: 'pending' as const,
        code: null,
        path: null,
        dictionary_id: null,
        coded_by: null,
        coded_at: null,
      };
}

async function audit(
  trx: Transaction<Database>,
  actor: AuditActor,
  type: 'coding.auto_coded' | 'coding.queued' | 'coding.removed',
  assignmentId: number,
  subject: { id: number; study_id: number; site_id: number },
  before: unknown,
  after: unknown,
): Promise<void> {
  await recordAudit(trx, actor, {
    type,
    entityType: 'coding_assignment',
    entityId: assignmentId,
    studyId: subject.study_id,
    siteId: subject.site_id,
    subjectId: subject.id,
    before,
    after,
  });
}
