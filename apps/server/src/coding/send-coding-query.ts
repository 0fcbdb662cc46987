import type { CodingAssignment, CodingQueryRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { insertQuery, prepareQuery, refreshAfterQueries } from '../queries/create-query.ts';
import { readAssignment } from './present-assignment.ts';

/**
 * The coder sends an unclear verbatim back to the site: a manual query on the verbatim's cell through
 * the queries feature's own command (`prepareQuery` + `insertQuery`: the subject in scope, holds,
 * notification; allowed by the coder's `coding.code`), and the assignment in status `query` until the site's correction recodes it
 * (`code-after-change.ts`). Version check (409), one open coding query at a time (409), all in one
 * transaction with its audit records.
 */
export async function sendCodingQuery(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  assignmentId: number,
  request: CodingQueryRequest,
  at = new Date(),
): Promise<{ assignment: CodingAssignment; queryId: number }> {
  const found = await readAssignment(db, studyId, assignmentId);
  if (!found) throw new AppError(404, 'not_found');
  const prepared = await prepareQuery(
    db,
    principal,
    studyId,
    {
      subjectPk: found.subjectPk,
      visitKey: found.visitKey,
      formKey: found.formKey,
      itemPath: found.itemPath,
      text: request.text,
      assignee: 'site',
    },
    'coding.code',
  );
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('coding_assignments')
      .selectAll()
      .where('id', '=', assignmentId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    if (row.version !== request.version) throw new AppError(409, 'coding_changed');
    if (row.status === 'query') throw new AppError(409, 'coding_query_open');
    const queryId = await insertQuery(trx, principal, actor, prepared, at);
    await refreshAfterQueries(trx, prepared.definition, row.subject_id);
    await trx
      .updateTable('coding_assignments')
      .set({ status: 'query', query_id: queryId, version: row.version + 1, updated_at: at })
      .where('id', '=', row.id)
      .execute();
    await recordAudit(trx, actor, {
      type: 'coding.query_sent',
      entityType: 'coding_assignment',
      entityId: row.id,
      studyId,
      siteId: row.site_id,
      subjectId: row.subject_id,
      before: { status: row.status },
      after: { verbatim: row.verbatim, status: 'query', queryId, text: request.text },
    });
    const assignment = await readAssignment(trx, studyId, row.id);
    if (!assignment) throw new AppError(404, 'not_found');
    return { assignment, queryId };
  });
}
