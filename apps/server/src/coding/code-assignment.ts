import type { CodeAssignmentRequest, CodingAssignment } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { activeDictionary, termByCode } from '../coding-state/match-verbatim.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { readAssignment } from './present-assignment.ts';

/**
 * The coder codes one verbatim with a current term of the active version (`manual`): the version
 * read must still be the assignment's (409 otherwise), the code one of the version's current terms
 * (422). The assignment and its audit record in one transaction.
 */
export async function codeAssignment(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  assignmentId: number,
  request: CodeAssignmentRequest,
  at = new Date(),
): Promise<CodingAssignment> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('coding_assignments')
      .selectAll()
      .where('study_id', '=', studyId)
      .where('id', '=', assignmentId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    if (row.version !== request.version) throw new AppError(409, 'coding_changed');
    const dictionary = await activeDictionary(trx, studyId, row.kind);
    if (!dictionary) throw new AppError(422, 'coding_no_dictionary');
    const term = await termByCode(trx, dictionary.id, request.code);
    if (!term?.current || term.path.kind !== row.kind) throw new AppError(422, 'coding_code_unknown');
    await trx
      .updateTable('coding_assignments')
      .set({
        status: 'manual',
        code: term.code,
        path: JSON.stringify(term.path),
        dictionary_id: dictionary.id,
        coded_by: principal.user.id,
        coded_at: at,
        version: row.version + 1,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .execute();
    await recordAudit(trx, actor, {
      type: 'coding.coded',
      entityType: 'coding_assignment',
      entityId: row.id,
      studyId,
      siteId: row.site_id,
      subjectId: row.subject_id,
      before: { status: row.status, code: row.code },
      after: {
        verbatim: row.verbatim,
        status: 'manual',
        code: term.code,
        dictionaryVersion: dictionary.version,
      },
    });
    const shown = await readAssignment(trx, studyId, row.id);
    if (!shown) throw new AppError(404, 'not_found');
    return shown;
  });
}
