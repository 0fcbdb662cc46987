import { type ReportCoded, todayInKorea } from '@cdms/contract';
import { getStudyIndex, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import { can, type SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';

/**
 * What every report starts from: the reader's sites (`readerScope`: members only, 404 otherwise;
 * `report.read` or 403), narrowed to the site asked for (another is 404), today in UTC+9 and the
 * study's current definition, whose labels and code lists the rows are presented with.
 */
export interface ReportContext {
  studyId: number;
  studyCode: string;
  scope: SiteScope;
  /** The sites in scope (after narrowing), by institution number. */
  siteIds: number[];
  definition: StudyDefinition | null;
  today: string;
}

/** The refusals of `reportContext`, as the routes built on it list them (`http/refusals.ts`). */
export const REPORT_REFUSALS = {
  403: 'The role may not read reports (`forbidden`).',
  404: 'The site filtered on is not one the caller sees (`not_found`).',
} as const;

export async function reportContext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  siteId: number | undefined,
): Promise<ReportContext> {
  const reader = await readerScope(db, principal, studyId);
  if (!can(principal, 'report.read', { studyId })) throw new AppError(403, 'forbidden');
  const scope = narrowToSite(reader, siteId);
  const studyCode = await readStudyCode(db, studyId);
  const siteIds = reader.sites.map((site) => site.id).filter((id) => scope === 'all' || scope.has(id));
  return {
    studyId,
    studyCode,
    scope,
    siteIds,
    definition: reader.definition,
    today: todayInKorea(),
  };
}

/**
 * A listing's page row read in one statement with the listing's counts (the counts as one row, the
 * page left-joined to it): all nulls when the page is past the end.
 */
export type PageRow<Row> = { [Key in keyof Row]: Row[Key] | null };

/** No site to read: a site role without sites, or a study without any. */
export function nothingInScope(context: ReportContext): boolean {
  return context.siteIds.length === 0;
}

/** A code of a code list as the reports show it: the code with its label, or null when empty. */
export function codedOf(definition: StudyDefinition | null, codeList: string, code: unknown): ReportCoded {
  if (typeof code !== 'string' || code === '') return null;
  const codes = definition ? getStudyIndex(definition).codeLists.get(codeList) : undefined;
  const found = codes?.find((entry) => entry.code === code);
  return { code, label: found ? { ko: found.label.ko, en: found.label.en } : { ko: code, en: code } };
}
