import type { AdminStudy, SiteRequest, SiteSummary } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, SiteRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';

export function presentSite(site: Pick<SiteRow, 'id' | 'code' | 'name' | 'institution_number'>): SiteSummary {
  return { id: site.id, code: site.code, name: site.name, institutionNumber: site.institution_number };
}

export async function listStudiesWithSites(db: Kysely<Database>): Promise<AdminStudy[]> {
  const studies = await db
    .selectFrom('studies')
    .select((eb) => [
      'id',
      'code',
      'title',
      'status',
      'protocol_number',
      'title_en',
      'sponsor',
      'kind',
      'screening_number_format',
      'randomization_enabled',
      'randomization_number_format',
      eb
        .exists(eb.selectFrom('study_definitions').select('id').whereRef('study_id', '=', 'studies.id'))
        .as('has_definition'),
    ])
    .orderBy('id')
    .execute();
  const sites = await db.selectFrom('sites').selectAll().orderBy('institution_number').execute();
  return studies.map((study) => ({
    id: study.id,
    code: study.code,
    title: study.title,
    status: study.status,
    protocolNumber: study.protocol_number,
    titleEn: study.title_en,
    sponsor: study.sponsor,
    kind: study.kind,
    hasDefinition: Boolean(study.has_definition),
    sites: sites.filter((site) => site.study_id === study.id).map(presentSite),
    screeningNumberFormat: study.screening_number_format,
    randomizationEnabled: study.randomization_enabled,
    randomizationNumberFormat: study.randomization_number_format,
  }));
}

async function requireStudy(db: Kysely<Database>, studyId: number): Promise<void> {
  const study = await db.selectFrom('studies').select('id').where('id', '=', studyId).executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
}

/** The refusal a unique violation of the sites table stands for, if it is one. */
export function siteConflict(error: unknown): AppError | undefined {
  if (isUniqueViolation(error, 'sites_study_code_unique')) return new AppError(409, 'site_code_taken');
  if (isUniqueViolation(error, 'sites_study_institution_unique'))
    return new AppError(409, 'institution_number_taken');
  return undefined;
}

/**
 * Adds a site to a study in the caller's transaction, audited: the site page's command, and study
 * creation's participating sites (`create-study.ts`). A taken code or institution number fails
 * the transaction with a unique violation (`siteConflict` names it).
 */
export async function insertSite(
  trx: Transaction<Database>,
  actor: AuditActor,
  studyId: number,
  input: SiteRequest,
): Promise<SiteSummary> {
  const site = await trx
    .insertInto('sites')
    .values({
      study_id: studyId,
      code: input.code,
      name: input.name,
      institution_number: input.institutionNumber,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(trx, actor, {
    type: 'site.created',
    entityType: 'site',
    entityId: site.id,
    studyId,
    siteId: site.id,
    after: presentSite(site),
  });
  return presentSite(site);
}

export async function createSite(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  input: SiteRequest,
): Promise<SiteSummary> {
  await requireStudy(db, studyId);
  try {
    return await inTransaction(db, (trx) => insertSite(trx, actor, studyId, input));
  } catch (error) {
    throw siteConflict(error) ?? error;
  }
}

/**
 * The read model copies the site code (the subject list sorts by it): a new code reaches the site's
 * subjects' rows in the rename's transaction. A save or a registration at the site writes its
 * subject's row with the code it read, so they are made to wait first — saves for their subject's
 * row lock (every save takes it), registrations for the site's screening-number counter (every
 * registration takes it; created here if the site has none yet) — and the rows rewritten below are
 * the last written with the old code; those that come after read the new one.
 */
async function carrySiteCodeToReadModel(
  trx: Transaction<Database>,
  studyId: number,
  siteId: number,
  code: string,
): Promise<void> {
  await lockSubjectsInIdOrder(trx, { siteId });
  await trx
    .insertInto('subject_number_counters')
    .values({ study_id: studyId, site_id: siteId, last_number: 0 })
    .onConflict((conflict) =>
      conflict
        .columns(['study_id', 'site_id'])
        .doUpdateSet((eb) => ({ last_number: eb.ref('subject_number_counters.last_number') })),
    )
    .execute();
  // The read model's rows that sort by the site's code: the subject list's facts, the lab page's
  // results (issue 43 item 13) and the reports' rows (issue 46).
  for (const table of ['subject_facts', 'lab_results', 'report_rows'] as const) {
    await trx
      .updateTable(table)
      .set({ site_code: code })
      .where('site_id', '=', siteId)
      .where('site_code', '<>', code)
      .execute();
  }
}

export async function updateSite(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  siteId: number,
  input: SiteRequest,
): Promise<SiteSummary> {
  try {
    return await inTransaction(db, async (trx) => {
      const before = await trx
        .selectFrom('sites')
        .selectAll()
        .where('id', '=', siteId)
        .where('study_id', '=', studyId)
        .executeTakeFirst();
      if (!before) throw new AppError(404, 'not_found');
      const after = await trx
        .updateTable('sites')
        .set({ code: input.code, name: input.name, institution_number: input.institutionNumber })
        .where('id', '=', siteId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (after.code !== before.code) await carrySiteCodeToReadModel(trx, studyId, siteId, after.code);
      await recordAudit(trx, actor, {
        type: 'site.updated',
        entityType: 'site',
        entityId: siteId,
        studyId,
        siteId,
        before: presentSite(before),
        after: presentSite(after),
      });
      return presentSite(after);
    });
  } catch (error) {
    throw siteConflict(error) ?? error;
  }
}
