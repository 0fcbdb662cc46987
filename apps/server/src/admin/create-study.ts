import { type AdminStudy, type CreateStudyRequest, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { listStudiesWithSites } from './sites.ts';

/**
 * A system administrator creates a study (issue 45 item 1). It starts in design: only its designers
 * (DM and ADMIN members) see it and nobody can register a subject until an administrator takes it
 * live. Its creator (or the account the CLI names) becomes its first ADMIN, so the study is someone's to design from the start;
 * sites and further members are added as for any study. One transaction, audited.
 */
export async function createStudy(
  db: Kysely<Database>,
  actor: AuditActor,
  input: CreateStudyRequest,
  /** The study's first ADMIN: the creating administrator (the API), or the account the CLI names. */
  firstAdminUserId: number,
): Promise<AdminStudy> {
  let studyId: number;
  try {
    studyId = await inTransaction(db, async (trx) => {
      const values = {
        code: input.code,
        title: input.titleKo,
        title_en: input.titleEn,
        protocol_number: input.protocolNumber,
        sponsor: input.sponsor,
        kind: input.kind,
        content: input.content,
        status: 'design' as const,
        registered_on: input.registeredOn ?? todayInKorea(),
      };
      const study = await trx.insertInto('studies').values(values).returning('id').executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'study.created',
        entityType: 'study',
        entityId: study.id,
        studyId: study.id,
        after: values,
      });
      const membership = await trx
        .insertInto('memberships')
        .values({ user_id: firstAdminUserId, study_id: study.id, role: 'ADMIN' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'membership.created',
        entityType: 'membership',
        entityId: membership.id,
        studyId: study.id,
        after: { userId: firstAdminUserId, role: 'ADMIN', siteIds: [] },
      });
      return study.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'studies_code_unique')) throw new AppError(409, 'study_code_taken');
    throw error;
  }
  const created = (await listStudiesWithSites(db)).find((study) => study.id === studyId);
  if (!created) throw new AppError(404, 'not_found');
  return created;
}
