import { type AdminStudy, type CreateStudyInput, todayInKorea } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { insertMembership, isMembershipConflict } from './memberships.ts';
import { insertSite, listStudiesWithSites, siteConflict } from './sites.ts';

/**
 * A system administrator creates a study (issue 45 item 1). It starts in design: only its designers
 * (DM and ADMIN members) see it and nobody can register a subject until an administrator takes it
 * live. Its creator (or the account the CLI names) becomes its first ADMIN, so the study is someone's
 * to design from the start. The request may also carry its number formats, whether it randomizes,
 * its participating sites and its first members: all written in one transaction, each audited as
 * the site and membership commands audit theirs (their own functions write them), so a refused
 * request leaves nothing behind.
 */
export async function createStudy(
  db: Kysely<Database>,
  actor: AuditActor,
  input: CreateStudyInput,
  /** The study's first ADMIN: the creating administrator (the API), or the account the CLI names. */
  firstAdminUserId: number,
): Promise<AdminStudy> {
  // A member's sites are named by the codes of the sites created with the study.
  const listedCodes = new Set(input.sites.map((site) => site.code));
  for (const member of input.members) {
    const unknown = member.siteCodes.find((code) => !listedCodes.has(code));
    if (unknown !== undefined) throw new AppError(422, 'unknown_member_site', { code: unknown });
  }
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
        screening_number_format: input.screeningNumberFormat,
        randomization_enabled: input.randomizationEnabled,
        randomization_number_format: input.randomizationNumberFormat,
      };
      const study = await trx.insertInto('studies').values(values).returning('id').executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'study.created',
        entityType: 'study',
        entityId: study.id,
        studyId: study.id,
        after: values,
      });
      const siteIdByCode = new Map<string, number>();
      for (const site of input.sites) {
        const created = await insertSite(trx, actor, study.id, site);
        siteIdByCode.set(created.code, created.id);
      }
      await insertMembership(trx, actor, study.id, { userId: firstAdminUserId, role: 'ADMIN', siteIds: [] });
      for (const member of input.members) {
        const userId = await userIdByEmail(trx, member.email);
        const siteIds = member.siteCodes.map((code) => siteIdByCode.get(code) as number);
        await insertMembership(trx, actor, study.id, { userId, role: member.role, siteIds });
      }
      return study.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'studies_code_unique')) throw new AppError(409, 'study_code_taken');
    if (isMembershipConflict(error)) throw new AppError(409, 'membership_exists');
    throw siteConflict(error) ?? error;
  }
  const created = (await listStudiesWithSites(db)).find((study) => study.id === studyId);
  if (!created) throw new AppError(404, 'not_found');
  return created;
}

async function userIdByEmail(trx: Transaction<Database>, email: string): Promise<number> {
  const user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (!user) throw new AppError(422, 'unknown_member_email', { email });
  return user.id;
}
