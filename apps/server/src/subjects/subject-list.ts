import {
  type CodedValue,
  presetDates,
  type SubjectListFilter,
  type SubjectListResponse,
  type SubjectListRow,
  type SubjectListSortKey,
  type subjectListQuerySchema,
  subjectStatusValueOf,
  subjectStatusValues,
  todayInKorea,
} from '@cdms/contract';
import type { Code, StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { can, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { loadSubjectFacts, type SubjectFacts, subjectFactCodes } from './subject-facts.ts';

/**
 * The full subject list and its download (prototype-spec §2 "Subject list", §3 "Subject (list row)").
 * Every column comes from `loadSubjectFacts`. Filtering, sorting and paging happen in memory after
 * the facts of every subject in the user's scope are loaded: a trial has hundreds of subjects, the
 * facts take a handful of queries, and several columns (last visit, signature, counts) are computed
 * from form data that SQL could only sort on through the same computation.
 */

/** A list row before it is numbered; the site name is only searched, not shown. */
export type UnnumberedRow = Omit<SubjectListRow, 'number'> & { siteName: string };

/** How the coded columns sort: by their place in the definition (code lists, visits), not by label. */
interface SortOrders {
  gender: Code[];
  screeningFailureReason: Code[];
  dropoutReason: Code[];
  visits: string[];
}

export interface SubjectRows {
  rows: UnnumberedRow[];
  orders: SortOrders;
  studyCode: string;
}

function coded(codes: Code[], code: string | null): CodedValue | null {
  if (code === null) return null;
  const known = codes.find((entry) => entry.code === code);
  // A code the current definition no longer lists is still shown, by its code.
  return { code, label: known ? known.label : { ko: code, en: code } };
}

function presentRow(
  facts: SubjectFacts,
  definition: StudyDefinition,
  orders: SortOrders,
  canDelete: boolean,
): UnnumberedRow {
  const lastVisit = facts.lastVisit
    ? definition.visits.find((visit) => visit.key === facts.lastVisit?.visitKey)
    : undefined;
  return {
    pk: facts.id,
    subjectId: facts.screeningNumber,
    initials: facts.initials,
    siteId: facts.siteId,
    site: facts.siteCode,
    siteName: facts.siteName,
    registrationNumber: facts.randomizationNumber,
    status: subjectStatusValueOf[facts.status],
    gender: coded(orders.gender, facts.gender),
    age: facts.age,
    consentDate: facts.consentDate,
    registrationDate: todayInKorea(facts.registeredAt),
    firstVisitDate: facts.firstVisit?.date ?? null,
    lastVisitDate:
      facts.lastVisit === null
        ? null
        : {
            code: facts.lastVisit.visitKey,
            label: lastVisit?.label ?? { ko: facts.lastVisit.visitKey, en: facts.lastVisit.visitKey },
          },
    lastVisitDateActual: facts.lastVisit?.date ?? null,
    adverseReaction: facts.adverseEventCount,
    unresolvedQuery: facts.openQueryCount + facts.answeredQueryCount,
    // An invalidated signature must be given again: the list shows it as pending.
    initialSignature: facts.signature === 'signed' ? 'done' : 'pending',
    registrationFailureReason: coded(orders.screeningFailureReason, facts.screeningFailureReason),
    dropoutReason: coded(orders.dropoutReason, facts.dropoutReason),
    canDelete,
  };
}

/** Every subject the user may read in the study, as list rows (deleted subjects left out). */
export async function loadSubjectRows(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  today: string,
): Promise<SubjectRows> {
  const study = await db.selectFrom('studies').select('code').where('id', '=', studyId).executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const current = await currentStudyDefinition(db, studyId);
  // No definition published (a study kept only for its record): no subject can have been registered.
  if (!current) {
    const orders = { gender: [], screeningFailureReason: [], dropoutReason: [], visits: [] };
    return { rows: [], orders, studyCode: study.code };
  }
  const { definition } = current;
  const facts = await loadSubjectFacts(db, {
    studyId,
    sites: siteScope(principal, 'subject.read', studyId),
    definition,
    today,
  });
  const orders: SortOrders = {
    ...subjectFactCodes(definition),
    visits: definition.visits.map((visit) => visit.key),
  };
  const rows = facts.map((subject) =>
    presentRow(
      subject,
      definition,
      orders,
      can(principal, 'subject.delete', { studyId, siteId: subject.siteId }),
    ),
  );
  return { rows, orders, studyCode: study.code };
}

/** The period a filter asks for: its dates, or a 3/6-month preset ending today (UTC+9). */
export function filterPeriod(filter: SubjectListFilter, today: string): { start?: string; end?: string } {
  if (!filter.start && !filter.end && filter.range !== 'all') return presetDates(filter.range, today);
  return {
    ...(filter.start ? { start: filter.start } : {}),
    ...(filter.end ? { end: filter.end } : {}),
  };
}

const dateOf: Record<SubjectListFilter['dateType'], (row: UnnumberedRow) => string | null> = {
  consentDate: (row) => row.consentDate,
  registrationDate: (row) => row.registrationDate,
  firstVisitDate: (row) => row.firstVisitDate,
  lastVisitDate: (row) => row.lastVisitDateActual,
};

export function filterRows(rows: UnnumberedRow[], filter: SubjectListFilter, today: string): UnnumberedRow[] {
  const { start, end } = filterPeriod(filter, today);
  const needle = filter.search?.toLowerCase() ?? '';
  return rows.filter((row) => {
    if (start || end) {
      // A subject without the chosen date (no visit yet) is outside any period.
      const date = dateOf[filter.dateType](row);
      if (date === null || (start && date < start) || (end && date > end)) return false;
    }
    if (filter.status !== 'all' && row.status !== filter.status) return false;
    if (filter.signature === 'true' && row.initialSignature !== 'done') return false;
    if (filter.signature === 'false' && row.initialSignature !== 'pending') return false;
    if (needle) {
      const fields = [row.subjectId, row.registrationNumber ?? '', row.initials, row.site, row.siteName];
      if (!fields.some((field) => field.toLowerCase().includes(needle))) return false;
    }
    return true;
  });
}

type SortValue = string | number | null;

function rank(codes: readonly { code: string }[] | readonly string[], code: string | null | undefined) {
  if (code === null || code === undefined) return null;
  const index = codes.findIndex((entry) => (typeof entry === 'string' ? entry : entry.code) === code);
  // Codes the definition does not list sort after the listed ones.
  return index === -1 ? codes.length : index;
}

function sortValue(row: UnnumberedRow, key: SubjectListSortKey, orders: SortOrders): SortValue {
  switch (key) {
    case 'status':
      // Workflow order (the spec's order of the five values), not alphabetical.
      return subjectStatusValues.indexOf(row.status);
    case 'gender':
      return rank(orders.gender, row.gender?.code);
    case 'lastVisitDate':
      return rank(orders.visits, row.lastVisitDate?.code);
    case 'registrationFailureReason':
      return rank(orders.screeningFailureReason, row.registrationFailureReason?.code);
    case 'dropoutReason':
      return rank(orders.dropoutReason, row.dropoutReason?.code);
    default:
      return row[key];
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null || b === null) return 0; // handled by the caller (empty cells last)
  return a < b ? -1 : 1;
}

/** Sorted by the column, empty cells last in either direction, ties by screening number. */
export function sortRows(
  rows: UnnumberedRow[],
  sort: SubjectListSortKey,
  order: 'asc' | 'desc',
  orders: SortOrders,
): UnnumberedRow[] {
  const direction = order === 'asc' ? 1 : -1;
  return rows
    .map((row) => ({ row, value: sortValue(row, sort, orders) }))
    .sort((a, b) => {
      if (a.value === null && b.value !== null) return 1;
      if (b.value === null && a.value !== null) return -1;
      return (
        direction * compareValues(a.value, b.value) ||
        compareValues(a.row.subjectId, b.row.subjectId) ||
        a.row.pk - b.row.pk
      );
    })
    .map((entry) => entry.row);
}

function numbered(rows: UnnumberedRow[], offset: number): SubjectListRow[] {
  return rows.map(({ siteName: _, ...row }, index) => ({ ...row, number: offset + index + 1 }));
}

/** The filtered, sorted subjects without paging (the download), numbered from 1. */
export async function listAllSubjects(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: SubjectListFilter,
): Promise<{ rows: SubjectListRow[]; studyCode: string; today: string }> {
  const today = todayInKorea();
  const loaded = await loadSubjectRows(db, principal, studyId, today);
  const rows = sortRows(filterRows(loaded.rows, filter, today), filter.sort, filter.order, loaded.orders);
  return { rows: numbered(rows, 0), studyCode: loaded.studyCode, today };
}

/**
 * One page of the filtered, sorted subjects with the total. A page past the last one is empty and
 * still carries the real total, so the pager can step back to the last page.
 */
export async function listSubjectsPage(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: z.output<typeof subjectListQuerySchema>,
): Promise<SubjectListResponse> {
  const { page, size, ...filter } = query;
  const { rows } = await listAllSubjects(db, principal, studyId, filter);
  const offset = (page - 1) * size;
  return { subjects: rows.slice(offset, offset + size), total: rows.length, page, size };
}
