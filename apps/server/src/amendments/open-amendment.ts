import type { OpenAmendmentRequest } from '@cdms/contract';
import { type StudyDefinition, studyDefinitionShapeSchema } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import { writeDesignDraftRevision } from '../study-design/save-design-draft.ts';
import { nextVersionName } from './next-version-name.ts';
import { writeAmendmentSites } from './write-amendment-sites.ts';

/**
 * `POST …/amendments` (issue 49 item 1): a DM or ADMIN opens an amendment of a live study — its
 * number, reason and the sites' approval dates. Its next version is drafted in the designer: the
 * study's design draft starts as the live version under the next version number (a draft left from
 * the design phase is kept, under a new number, so no one's work is lost). One draft at a time
 * (409 `amendment_draft_open`); a number once (409 `amendment_number_taken`); a study in design or
 * ended has none (409 `study_not_live`). Audited, with the draft's revision.
 */
export async function openAmendment(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: OpenAmendmentRequest,
): Promise<{ id: number }> {
  return inTransaction(db, async (trx) => {
    await requireLiveStudy(trx, studyId);
    const open = await trx
      .selectFrom('study_amendments')
      .select(['id', 'number', 'status'])
      .where('study_id', '=', studyId)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'draft'),
          eb(eb.fn('lower', ['number']), '=', request.number.toLowerCase()),
        ]),
      )
      .execute();
    const draft = open.find((row) => row.status === 'draft');
    if (draft) throw new AppError(409, 'amendment_draft_open', { number: draft.number });
    if (open.some((row) => row.status !== 'discarded'))
      throw new AppError(409, 'amendment_number_taken', { number: request.number });

    const live = await currentStudyDefinition(trx, studyId);
    if (!live) throw new AppError(409, 'study_not_live');
    const taken = await trx
      .selectFrom('study_definitions')
      .select('version')
      .where('study_id', '=', studyId)
      .execute();
    const leftover = await designDraftRow(trx, studyId);
    const next = structuredClone(startingPoint(leftover?.definition, live.definition));
    if (taken.some((row) => row.version === next.version))
      next.version = nextVersionName(live.version, new Set(taken.map((row) => row.version)));

    const row = await trx
      .insertInto('study_amendments')
      .values({
        study_id: studyId,
        number: request.number,
        reason: request.reason,
        from_version: live.version,
        opened_by: principal.user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sites = await writeAmendmentSites(trx, studyId, row.id, request.sites);
    const saved = await writeDesignDraftRevision(trx, principal, actor, studyId, leftover, next);
    await recordAudit(trx, actor, {
      type: 'study.amendment_opened',
      entityType: 'study_amendment',
      entityId: row.id,
      studyId,
      after: {
        number: request.number,
        reason: request.reason,
        sites,
        fromVersion: live.version,
        draftVersion: next.version,
        draftRevision: saved.revision,
      },
    });
    return { id: row.id };
  });
}

/** 409 `study_not_live` unless the study is live (active), under its row lock. */
async function requireLiveStudy(trx: Transaction<Database>, studyId: number): Promise<void> {
  const study = await trx
    .selectFrom('studies')
    .select('status')
    .where('id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  if (study.status !== 'active') throw new AppError(409, 'study_not_live');
}

/** The draft the amendment starts from: a leftover draft of the same study if it reads as one, else the live version. */
function startingPoint(leftover: unknown, live: StudyDefinition): StudyDefinition {
  const parsed = studyDefinitionShapeSchema.safeParse(leftover);
  if (parsed.success && (parsed.data as StudyDefinition).key === live.key)
    return parsed.data as StudyDefinition;
  return live;
}
