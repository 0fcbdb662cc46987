import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { currentStudyDefinition, definitionOfSubjectVersion } from '../studies/study-definitions.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { loadCasebooks } from './load-casebooks.ts';
import { type CasebookHeader, type RenderCasebookInput, renderCasebookPdf } from './render-casebook-pdf.ts';

export interface CasebookOptions {
  language: Language;
  withAudit: boolean;
  /** The printing time on the cover (now, unless a test fixes it). */
  printedAt?: Date;
}

/**
 * `GET …/subjects/:subjectId/casebook.pdf`: one subject's casebook for anyone who may read the
 * subject (the same scope as the form read: another site's subject is a 404). The download is
 * audited — who took which subject's casebook, in which language, with or without the audit trail —
 * before the first byte leaves.
 */
export async function exportSubjectCasebook(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  subjectId: number,
  options: CasebookOptions,
): Promise<{ pdf: PDFKit.PDFDocument; fileName: string }> {
  const subjectRow = await findSubjectInScope(db, principal, studyId, subjectId);
  const print = await loadCasebookPrint(db, principal, studyId, subjectRow.site_id, options);
  const [subject] = await loadCasebooks(db, { studyId, subjectIds: [subjectId], audit: options.withAudit });
  if (!subject) throw new AppError(404, 'not_found');
  await recordAudit(db, actor, {
    type: 'casebook.exported',
    entityType: 'subject',
    entityId: subject.id,
    studyId,
    siteId: subject.siteId,
    subjectId: subject.id,
    after: {
      format: 'PDF',
      scope: 'subject',
      screeningNumber: subject.screeningNumber,
      language: options.language,
      withAudit: options.withAudit,
      subjects: 1,
      forms: subject.forms.length,
      queries: subject.queries.length,
    },
  });
  const pdf = await renderCasebookPdf({
    ...print,
    definition: await print.definitionOf(subject.definitionVersion),
    subject,
  });
  return { pdf, fileName: casebookFileName(print.header.studyCode, subject.screeningNumber) };
}

/**
 * Everything a casebook PDF prints but the subject: the study's and site's names, the study's newest
 * definition (404 without one) and `definitionOf` a subject's version — a subject not yet migrated by
 * an amendment is laid out by its own version, so a renamed or retired item of it still prints —, the
 * language, whether the audit trail is in, when and by whom.
 */
export async function loadCasebookPrint(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  siteId: number,
  options: CasebookOptions,
): Promise<
  Omit<RenderCasebookInput, 'subject'> & { definitionOf(version: string | null): Promise<StudyDefinition> }
> {
  const header = await loadCasebookHeader(db, studyId, siteId);
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(404, 'not_found');
  const definitionOf = async (version: string | null) =>
    (await definitionOfSubjectVersion(db, studyId, version)) ?? current.definition;
  return {
    header,
    definition: current.definition,
    definitionOf,
    language: options.language,
    withAudit: options.withAudit,
    printedAt: options.printedAt ?? new Date(),
    printedBy: principal.user.name,
  };
}

/** The study's code and title and the site's code and name, for the cover and the footers. */
export async function loadCasebookHeader(
  db: Kysely<Database>,
  studyId: number,
  siteId: number,
): Promise<CasebookHeader> {
  const row = await db
    .selectFrom('sites')
    .innerJoin('studies', 'studies.id', 'sites.study_id')
    .select([
      'studies.code as studyCode',
      'studies.title as studyTitle',
      'sites.code as siteCode',
      'sites.name as siteName',
    ])
    .where('sites.id', '=', siteId)
    .where('sites.study_id', '=', studyId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** `casebook-<study>-<screening number>.pdf`, with anything outside [A-Za-z0-9_-] made a `_`. */
export function casebookFileName(studyCode: string, screeningNumber: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `casebook-${safe(studyCode)}-${safe(screeningNumber)}.pdf`;
}
