import type { createSubjectRequestSchema, SubjectSummary } from '@cdms/contract';
import { formatNumber, todayInKorea } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds } from '../locks/holds-in-force.ts';
import { definitionVersionAtSite } from '../studies/definition-version-at-site.ts';
import { currentStudyDefinition, studyDefinitionOfVersion } from '../studies/study-definitions.ts';
import { presentSubject } from '../subjects/subject-access.ts';
import { refuseUntrainedWriter } from '../training-gate/training-gate.ts';
import { writeForm } from './form-data.ts';

/**
 * The site's next screening number in the study's format (`S{site}-{seq:3}` unless the study was
 * created with another), taken in the caller's transaction: the counter row's lock makes concurrent
 * registrations at one site take consecutive numbers, on every server process.
 */
export async function takeScreeningNumber(
  trx: Transaction<Database>,
  studyId: number,
  site: { id: number; institutionNumber: string },
): Promise<string> {
  const counter = await trx
    .insertInto('subject_number_counters')
    .values({ study_id: studyId, site_id: site.id, last_number: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(['study_id', 'site_id'])
        .doUpdateSet((eb) => ({ last_number: eb('subject_number_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  const study = await trx
    .selectFrom('studies')
    .select('screening_number_format')
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  return formatNumber(study.screening_number_format, site.institutionNumber, counter.last_number);
}

export interface CreateSubjectOptions {
  /**
   * When the subject was registered (its registration date), if not now: the living demo, whose
   * story is counted back from today, registers each subject on its consent day. Never before the
   * consent date, never in the future. The API does not take it: a caller registers now.
   */
  registeredAt?: Date;
}

/**
 * Registers a subject at one of the user's sites (site staff only): the next screening number of
 * the site is taken under a row lock, so concurrent registrations never share one; the study's
 * registration form (its `registration` role; none without it) is filled from the registration.
 * Status starts at Screening.
 */
export async function createSubject(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  input: z.output<typeof createSubjectRequestSchema>,
  options: CreateSubjectOptions = {},
): Promise<SubjectSummary> {
  const { registeredAt } = options;
  if (
    registeredAt &&
    (registeredAt.getTime() > Date.now() || todayInKorea(registeredAt) < input.consentDate)
  ) {
    throw new Error(`a registration at ${registeredAt.toISOString()} is before the consent or in the future`);
  }
  const site = await db
    .selectFrom('sites')
    .select(['id', 'code', 'institution_number'])
    .where('id', '=', input.siteId)
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  if (!site || !can(principal, 'subject.read', { studyId, siteId: site.id })) {
    // Not a site of this study, or not one the user works at: refuse without telling which.
    throw new AppError(403, 'forbidden');
  }
  if (!can(principal, 'subject.write', { studyId, siteId: site.id })) throw new AppError(403, 'forbidden');
  // A study in design takes no subjects until an administrator takes it live (issue 45).
  if (principal.studies.get(studyId)?.status === 'design') throw new AppError(409, 'study_in_design');
  await refuseUntrainedWriter(db, principal, studyId, 'subject.write');
  if (input.consentDate > todayInKorea()) throw new AppError(422, 'consent_date_in_future');
  const newest = await currentStudyDefinition(db, studyId);
  if (!newest) throw new AppError(404, 'not_found');

  return inTransaction(db, async (trx) => {
    await refuseWriteUnderHolds(trx, 'subject.create', { studyId, siteId: site.id });
    // After an amendment: the version in effect at the site today (the newest where it is approved).
    const definitionVersion = await definitionVersionAtSite(trx, studyId, site.id, todayInKorea());
    const current =
      definitionVersion === null || definitionVersion === newest.version
        ? newest
        : await studyDefinitionOfVersion(trx, studyId, definitionVersion);
    const screeningNumber = await takeScreeningNumber(trx, studyId, {
      id: site.id,
      institutionNumber: site.institution_number,
    });
    const subject = await trx
      .insertInto('subjects')
      .values({
        study_id: studyId,
        site_id: site.id,
        screening_number: screeningNumber,
        initials: input.initials,
        consent_date: input.consentDate,
        created_by: principal.user.id,
        definition_version: definitionVersion,
        ...(registeredAt ? { created_at: registeredAt } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const withSite = { ...subject, site_code: site.code, institution_number: site.institution_number };
    await recordAudit(trx, actor, {
      type: 'subject.created',
      entityType: 'subject',
      entityId: subject.id,
      studyId,
      siteId: site.id,
      subjectId: subject.id,
      after: {
        screeningNumber,
        initials: input.initials,
        consentDate: input.consentDate,
        siteCode: site.code,
        status: 'screening',
        ...(registeredAt ? { registeredAt: registeredAt.toISOString() } : {}),
      },
    });
    const registration = current.definition.roles?.registration;
    if (registration) {
      await writeForm(trx, {
        subject: withSite,
        definition: current.definition,
        definitionVersion: current.version,
        visitKey: registration.visit,
        formKey: registration.form,
        values: {
          [registration.consentDate]: input.consentDate,
          ...(registration.initials ? { [registration.initials]: input.initials } : {}),
          ...(registration.screeningNumber ? { [registration.screeningNumber]: screeningNumber } : {}),
        },
        expectedVersion: 0,
        reasons: {},
        actor,
        systemWrite: true,
      });
    }
    return presentSubject(withSite);
  });
}
