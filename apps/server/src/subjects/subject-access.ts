import type { Action, SubjectSummary } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Database, SubjectRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { studyDefinitionOfRow, subjectDefinitionOf } from '../studies/study-definitions.ts';
import { refuseUntrainedWriter } from '../training-gate/training-gate.ts';

export type SubjectWithSite = SubjectRow & { site_code: string; institution_number: string };

/** The study's subject, unless deleted, with its site's code and institution number: a statement to extend. */
export function subjectQuery(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  subjectId: number,
) {
  return db
    .selectFrom('subjects')
    .innerJoin('sites', 'sites.id', 'subjects.site_id')
    .selectAll('subjects')
    .select(['sites.code as site_code', 'sites.institution_number'])
    .where('subjects.id', '=', subjectId)
    .where('subjects.study_id', '=', studyId)
    .where('subjects.deleted_at', 'is', null);
}

/**
 * The subject, if the user may read it; otherwise 404, so a subject outside the user's sites is
 * indistinguishable from one that does not exist. When `action` is more than reading and the user
 * may read but not do it, 403; a site data write by someone who still owes required training, 403
 * `training_required` (`training/training-gate.ts`).
 */
export async function findSubjectInScope(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  subjectId: number,
  action: Action = 'subject.read',
): Promise<SubjectWithSite> {
  const subject = await subjectQuery(db, studyId, subjectId).executeTakeFirst();
  return refuseOutOfScope(db, principal, studyId, subject, action);
}

/** The subject with its site and the definition it is on (`compiledOnce`: every form read and save). */
const subjectAndDefinition = compiledOnce((db, params: { studyId: number; subjectId: number }) =>
  subjectQuery(db, params.studyId, params.subjectId).select(
    subjectDefinitionOf(db, params.studyId).as('subject_definition'),
  ),
);

/** The same with the subject's row lock (a save). */
const lockedSubjectAndDefinition = compiledOnce((db, params: { studyId: number; subjectId: number }) =>
  subjectQuery(db, params.studyId, params.subjectId)
    .select(subjectDefinitionOf(db, params.studyId).as('subject_definition'))
    .forUpdate(['subjects']),
);

/**
 * `findSubjectInScope` and the definition the subject is on (its own version after an amendment's
 * publication, else the study's newest; 404 without one) in one statement: the form routes need both
 * on every read and save. A save asks for the subject's row lock with it
 * (`forUpdate`, inside its transaction): the row is then read as the lock found it, after any
 * writer it waited for, so the save needs no statement of its own for the lock.
 */
export async function findSubjectAndDefinitionInScope(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  subjectId: number,
  action: Action = 'subject.read',
  options: { forUpdate?: boolean } = {},
): Promise<{ subject: SubjectWithSite; version: string; definition: StudyDefinition }> {
  const statement = options.forUpdate ? lockedSubjectAndDefinition : subjectAndDefinition;
  const [row] = await statement(db, { studyId, subjectId });
  const { subject_definition: definitionRow, ...found } = row ?? { subject_definition: null };
  const subject = await refuseOutOfScope(
    db,
    principal,
    studyId,
    row ? (found as SubjectWithSite) : undefined,
    action,
  );
  if (!definitionRow) throw new AppError(404, 'not_found');
  return { subject, ...(await studyDefinitionOfRow(db, definitionRow)) };
}

/** The subject found, or the refusal: 404 outside the reader's scope, 403 for the action or training. */
async function refuseOutOfScope(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  subject: SubjectWithSite | undefined,
  action: Action,
): Promise<SubjectWithSite> {
  if (!subject || !can(principal, 'subject.read', { studyId, siteId: subject.site_id })) {
    throw new AppError(404, 'not_found');
  }
  if (action !== 'subject.read' && !can(principal, action, { studyId, siteId: subject.site_id })) {
    throw new AppError(403, 'forbidden');
  }
  // Site staff's writes wait for the study's required training when its setting says so.
  await refuseUntrainedWriter(db, principal, studyId, action);
  return subject;
}

export function presentSubject(subject: SubjectWithSite): SubjectSummary {
  return {
    id: subject.id,
    subjectId: subject.screening_number,
    initials: subject.initials,
    siteId: subject.site_id,
    siteCode: subject.site_code,
    status: subject.status,
    consentDate: subject.consent_date,
    createdAt: subject.created_at.toISOString(),
  };
}
