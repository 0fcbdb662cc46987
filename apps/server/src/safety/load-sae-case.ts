import type { SaeVersion } from '@cdms/contract';
import type { JsonValue } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { loadSubjectData } from '../data-entry/form-data.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { definitionOfSubjectVersion } from '../studies/study-definitions.ts';
import { findSaeReportInScope, type SaeReportRow } from './sae-access.ts';
import { saeVersionsOf } from './sae-presenter.ts';

/** Everything an export of one report version prints: the study, the subject, the event, the version. */
export interface SaeCase {
  report: SaeReportRow;
  version: SaeVersion;
  study: { code: string; title: string; titleEn: string; protocolNumber: string; sponsor: string };
  site: { name: string; institutionNumber: string };
  subject: { screeningNumber: string; initials: string };
  /** The event's row on the form, read through the study's `adverseEvents` role ('' when not there). */
  event: { term: string; startDate: string; endDate: string };
}

const textOf = (value: JsonValue | undefined): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/**
 * One version of a report (the current one unless `versionNumber` names another) with what the CIOMS
 * form and the E2B message print, if the caller may read the report (404 otherwise).
 */
export async function loadSaeCase(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  reportId: number,
  versionNumber: number | undefined,
): Promise<SaeCase> {
  const report = await findSaeReportInScope(db, principal, studyId, reportId);
  const versions = await saeVersionsOf(db, report.id);
  const version = versions.find((v) => v.version === (versionNumber ?? report.current_version));
  if (!version) throw new AppError(404, 'not_found');
  const study = await db
    .selectFrom('studies')
    .select(['code', 'title', 'title_en', 'protocol_number', 'sponsor'])
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  const subject = await db
    .selectFrom('subjects as s')
    .innerJoin('sites', 'sites.id', 's.site_id')
    .select(['s.initials', 's.definition_version', 'sites.name', 'sites.institution_number'])
    .where('s.id', '=', report.subject_id)
    .executeTakeFirstOrThrow();
  const definition = await definitionOfSubjectVersion(db, studyId, subject.definition_version);
  const role = definition?.roles?.adverseEvents;
  let event = { term: report.term, startDate: '', endDate: '' };
  if (role) {
    const stored = await loadSubjectData(db, report.subject_id);
    const rows = stored.entered[report.visit_key]?.[report.form_key]?.[role.rows];
    const row = Array.isArray(rows) ? rows[report.event_number - 1] : undefined;
    if (row && typeof row === 'object' && !Array.isArray(row)) {
      event = {
        term: (role.term ? textOf(row[role.term]) : '') || report.term,
        startDate: role.startDate ? textOf(row[role.startDate]) : '',
        endDate: role.endDate ? textOf(row[role.endDate]) : '',
      };
    }
  }
  return {
    report,
    version,
    study: {
      code: study.code,
      title: study.title,
      titleEn: study.title_en,
      protocolNumber: study.protocol_number,
      sponsor: study.sponsor,
    },
    site: { name: subject.name, institutionNumber: subject.institution_number },
    subject: { screeningNumber: report.screening_number, initials: subject.initials },
    event,
  };
}
