import type { AdverseEventRow, AdverseEventsReport, ReportCoded, ReportFilter } from '@cdms/contract';
import { getFormLayout, type StudyDefinition, type StudyRoles } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import {
  allReportRows,
  countOf,
  readListing,
  reportRowCounts,
  type StoredReportRow,
} from './read-report-rows.ts';
import { codedOf, nothingInScope, type ReportContext } from './report-context.ts';

/**
 * The adverse event listing (issue 17): every row of every subject's adverse event form with
 * seriousness, severity, relationship to the device, action taken, outcome and dates (serious ones
 * flagged for the screen to highlight), and the events of interest — the yesNo items of the study's
 * `eventsOfInterest` role answered "yes" — counted per visit. Both are the read model's stored rows
 * (`read-model/report-rows.ts`: one per event, one per events-of-interest form and per "yes"), the page
 * read in order from an index and the counts from the totals, so neither grows with the trial. The
 * events and their columns are the study's `adverseEvents` role: a study without it lists none, and
 * one without events of interest counts none.
 */

type AdverseEventsRole = NonNullable<StudyRoles['adverseEvents']>;

/** Which stored rows the filter lists: the serious events, or all. */
const eventsSelection = (filter: ReportFilter) =>
  ({
    report: 'adverseEvents',
    ...(filter.serious === 'serious' ? { buckets: ['serious'] } : {}),
  }) as const;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A row's value of one of the role's columns (none when the study lacks the column). */
const columnOf = (event: Record<string, unknown>, itemKey: string | undefined): unknown =>
  itemKey === undefined ? undefined : event[itemKey];

/** Presents the rows of the role's events (its columns found once, not per row). */
function rowPresenter(
  context: ReportContext,
  role: AdverseEventsRole,
): (row: StoredReportRow) => AdverseEventRow {
  // A coded column is labelled from its item's code list as the rows lay it out.
  const rowItems = context.definition
    ? getFormLayout(context.definition, role.visit, role.form)?.items
    : undefined;
  const codeListOf = (itemKey: string | undefined) =>
    (itemKey === undefined ? undefined : rowItems?.get(itemKey)?.item.codeList) ?? '';
  const codeLists = {
    severity: codeListOf(role.severity),
    causality: codeListOf(role.causality),
    actionTaken: codeListOf(role.actionTaken),
    outcome: codeListOf(role.outcome),
  };
  return (row) => presentRow(context, role, codeLists, row);
}

function presentRow(
  context: ReportContext,
  role: AdverseEventsRole,
  codeLists: Record<'severity' | 'causality' | 'actionTaken' | 'outcome', string>,
  row: StoredReportRow,
): AdverseEventRow {
  const event = (row.payload.event ?? {}) as Record<string, unknown>;
  const coded = (column: keyof typeof codeLists): ReportCoded =>
    codedOf(context.definition, codeLists[column], columnOf(event, role[column]));
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    eventNumber: Number(row.payload.eventNumber),
    term: text(columnOf(event, role.term)),
    startDate: text(columnOf(event, role.startDate)),
    endDate: text(columnOf(event, role.endDate)),
    serious: event[role.serious] === 'Y',
    severity: coded('severity'),
    causality: coded('causality'),
    deviceAction: coded('actionTaken'),
    outcome: coded('outcome'),
  };
}

/** The role's events with their items' labels (as laid out at the first visit with the form). */
function interestEventsOf(definition: StudyDefinition | null) {
  const role = definition?.roles?.eventsOfInterest;
  if (!definition || !role) return [];
  const visit = definition.visits.find((entry) => entry.forms.includes(role.form));
  const items = visit ? getFormLayout(definition, visit.key, role.form)?.items : undefined;
  return role.items.map((itemKey) => {
    const item = items?.get(itemKey)?.item;
    return {
      key: itemKey,
      label: item ? { ko: item.label.ko, en: item.label.en } : { ko: itemKey, en: itemKey },
    };
  });
}

async function eventsOfInterest(db: Kysely<Database>, context: ReportContext) {
  const definition = context.definition;
  const role = definition?.roles?.eventsOfInterest;
  if (!definition || !role) return [];
  const visits = definition.visits.filter((visit) => visit.forms.includes(role.form));
  if (visits.length === 0) return [];
  // The saved forms are the rows of bucket '', the events answered "yes" those of the event's key.
  const counts = await reportRowCounts(db, context, { report: 'eventsOfInterest' }, { perSite: false });
  const countAt = (visitKey: string, bucket: string) =>
    countOf(counts, (count) => count.group_key === visitKey && count.bucket === bucket);
  return visits.map((visit) => ({
    visitKey: visit.key,
    visitLabel: visitLabelOf(definition, visit.key),
    forms: countAt(visit.key, ''),
    counts: Object.fromEntries(role.items.map((itemKey) => [itemKey, countAt(visit.key, itemKey)])),
  }));
}

export async function aeListingReport(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
  page: { page: number; size: number },
): Promise<AdverseEventsReport> {
  const interestEvents = interestEventsOf(context.definition);
  if (nothingInScope(context))
    return { report: 'adverseEvents', total: 0, ...page, rows: [], interestEvents, interest: [] };
  const role = context.definition?.roles?.adverseEvents;
  // Without the role there are no events to list; the events of interest are counted all the same.
  const selection = eventsSelection(filter);
  const [{ rows, counts }, interest] = await Promise.all([
    role ? readListing(db, context, selection, page) : { rows: [], counts: [] },
    eventsOfInterest(db, context),
  ]);
  return {
    report: 'adverseEvents',
    total: countOf(counts),
    ...page,
    rows: role ? rows.map(rowPresenter(context, role)) : [],
    interestEvents,
    interest,
  };
}

export async function* allAdverseEvents(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<AdverseEventRow[]> {
  const role = context.definition?.roles?.adverseEvents;
  if (nothingInScope(context) || !role) return;
  const present = rowPresenter(context, role);
  for await (const rows of allReportRows(db, context, eventsSelection(filter))) yield rows.map(present);
}
