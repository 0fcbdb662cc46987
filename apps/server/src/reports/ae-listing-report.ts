import type { AdverseEventRow, AdverseEventsReport, ReportCoded, ReportFilter } from '@cdms/contract';
import { getFormLayout, type StudyDefinition, type StudyRoles } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import { codedOf, nothingInScope, type ReportContext } from './report-context.ts';

/**
 * The adverse event listing (issue 17): every row of every subject's adverse event form with
 * seriousness, severity, relationship to the device, action taken, outcome and dates (serious ones
 * flagged for the screen to highlight), and the events of interest — the yesNo items of the study's
 * `eventsOfInterest` role answered "yes" — counted per visit. The rows are unnested in SQL
 * (`jsonb_array_elements` over the repeating group's one JSON array), paged there; the counts are one
 * grouped query. The events and their columns are the study's `adverseEvents` role: a study without it
 * lists none, and one without events of interest counts none.
 */

type AdverseEventsRole = NonNullable<StudyRoles['adverseEvents']>;

interface EventRow {
  site_code: string;
  subject_id: number;
  screening_number: string;
  event_number: number | string;
  event: Record<string, unknown>;
}

function eventsSql(
  context: ReportContext,
  role: AdverseEventsRole | undefined,
  filter: ReportFilter,
): RawBuilder<unknown> | null {
  if (nothingInScope(context) || !role) return null;
  const serious = filter.serious === 'serious' ? sql`and e.value->>${role.serious} = 'Y'` : sql``;
  return sql`with events as (
      select s.code as site_code, f.subject_id, f.screening_number, e.ordinality as event_number, e.value as event
      from form_instances fi
      join subject_facts f on f.subject_id = fi.subject_id
      join sites s on s.id = f.site_id
      join item_values iv on iv.form_instance_id = fi.id and iv.item_key = ${role.rows}
      cross join lateral jsonb_array_elements(
        case when jsonb_typeof(iv.value) = 'array' then iv.value else '[]'::jsonb end
      ) with ordinality as e(value, ordinality)
      where f.study_id = ${context.studyId} and f.site_id in (${sql.join(context.siteIds)})
        and fi.visit_key = ${role.visit} and fi.form_key = ${role.form} and fi.has_data
        and jsonb_typeof(e.value) = 'object' ${serious})`;
}

const ORDER = sql`order by site_code collate "C", screening_number collate "C", event_number`;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A row's value of one of the role's columns (none when the study lacks the column). */
const columnOf = (event: Record<string, unknown>, itemKey: string | undefined): unknown =>
  itemKey === undefined ? undefined : event[itemKey];

/** Presents the rows of the role's events (its columns found once, not per row). */
function rowPresenter(context: ReportContext, role: AdverseEventsRole): (row: EventRow) => AdverseEventRow {
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
  row: EventRow,
): AdverseEventRow {
  const event = row.event;
  const coded = (column: keyof typeof codeLists): ReportCoded =>
    codedOf(context.definition, codeLists[column], columnOf(event, role[column]));
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    eventNumber: Number(row.event_number),
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
  // One count per event, in the role's order: columns `e0`, `e1`… (item keys are not SQL names).
  const counts = role.items.map(
    (itemKey, index) =>
      sql`count(*) filter (where exists (select 1 from item_values iv where iv.form_instance_id = fi.id
        and iv.item_key = ${itemKey} and iv.value #>> '{}' = 'Y')) as ${sql.ref(`e${index}`)}`,
  );
  const rows = await sql<Record<string, number | string> & { visit_key: string; forms: number | string }>`
    select fi.visit_key, count(*) as forms, ${sql.join(counts)}
    from form_instances fi join subject_facts f on f.subject_id = fi.subject_id
    where f.study_id = ${context.studyId} and f.site_id in (${sql.join(context.siteIds)})
      and fi.form_key = ${role.form} and fi.has_data
    group by fi.visit_key`.execute(db);
  const byVisit = new Map(rows.rows.map((row) => [row.visit_key, row]));
  return visits.map((visit) => {
    const row = byVisit.get(visit.key);
    return {
      visitKey: visit.key,
      visitLabel: visitLabelOf(definition, visit.key),
      forms: Number(row?.forms ?? 0),
      counts: Object.fromEntries(
        role.items.map((itemKey, index) => [itemKey, Number(row?.[`e${index}`] ?? 0)]),
      ),
    };
  });
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
  const base = eventsSql(context, role, filter);
  const [rows, total, interest] = await Promise.all([
    base
      ? sql<EventRow>`${base} select * from events ${ORDER}
      limit ${page.size} offset ${(page.page - 1) * page.size}`.execute(db)
      : { rows: [] },
    base
      ? sql<{ total: number | string }>`${base} select count(*) as total from events`.execute(db)
      : { rows: [] },
    eventsOfInterest(db, context),
  ]);
  return {
    report: 'adverseEvents',
    total: Number(total.rows[0]?.total ?? 0),
    ...page,
    rows: role ? rows.rows.map(rowPresenter(context, role)) : [],
    interestEvents,
    interest,
  };
}

const CHUNK = 500;

export async function* allAdverseEvents(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<AdverseEventRow[]> {
  const role = context.definition?.roles?.adverseEvents;
  const base = eventsSql(context, role, filter);
  if (!base || !role) return;
  const present = rowPresenter(context, role);
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await sql<EventRow>`${base} select * from events ${ORDER}
      limit ${CHUNK} offset ${offset}`.execute(db);
    yield rows.rows.map(present);
    if (rows.rows.length < CHUNK) return;
  }
}
