import type { QueryDetail } from '@cdms/contract';
import { refuseUnderHolds, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { holdsOver, queryHoldTarget } from '../locks/holds-in-force.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { checkStillFails } from './act-on-query.ts';
import { queriesWithSubject } from './list-queries.ts';
import { findQueryInScope, queryPowers } from './query-access.ts';
import { presentQueryRow, threadOf } from './query-presenter.ts';
import { allowedQueryActions } from './query-workflow.ts';

/** One query with its whole thread and what the reader may do with it now. */
export async function queryDetail(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  queryId: number,
): Promise<QueryDetail> {
  await findQueryInScope(db, principal, studyId, queryId);
  const row = await queriesWithSubject(db, todayInKorea())
    .where('queries.id', '=', queryId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  const definition = (await currentStudyDefinition(db, studyId))?.definition ?? null;
  const messages = await threadOf(db, queryId);
  // What the reader's roles and the query's state allow, less what a lock over its form refuses (a
  // freeze leaves query work open; lock-rules.ts): the thread offers no button the server would
  // answer with 423.
  const holds = await holdsOver(db, queryHoldTarget(row));
  const actions = allowedQueryActions(
    row.status,
    row.kind,
    queryPowers(principal, studyId, row.site_id),
  ).filter(
    (action) => refuseUnderHolds(action === 'answer' ? 'query.answer' : 'query.manage', holds) === null,
  );
  return {
    ...presentQueryRow(row, definition, messages.at(-1)),
    messages,
    checkStillFails: definition ? await checkStillFails(db, definition, row) : false,
    abilities: {
      answer: actions.includes('answer'),
      comment: actions.includes('comment'),
      close: actions.includes('close'),
      cancel: actions.includes('cancel'),
      reopen: actions.includes('reopen'),
    },
  };
}
