import { type KriKey, startOfKoreanDay } from '@cdms/contract';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One indicator of one site (`siteId` 0: the whole study) as a run computes it. */
export interface ComputedIndicator {
  siteId: number;
  key: KriKey;
  value: number | null;
  numerator: number;
  denominator: number;
  subjects: number;
}

/** Days in a subject-month: an average month. */
const DAYS_PER_MONTH = 30.4375;

interface Part {
  /** Rows (site_id, numerator, denominator, value) per site and one with site_id null: the study. */
  query: RawBuilder<{ site_id: number | null; numerator: number; denominator: number; value: number | null }>;
  keys: KriKey[];
}

/**
 * The key risk indicators of every site of a study and of the whole study, each computed by one
 * set-based statement over the read model and the stored data (README "Indicators": what each counts,
 * which table it reads, which index serves it). `today` (YYYY-MM-DD, Korea) decides what is overdue and
 * how long subjects have been followed. Ratios carry their numerator and denominator; the medians carry
 * the median as numerator and the count it is taken over as denominator.
 */
export async function computeIndicators(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  today: string,
  onStep: () => Promise<void> = async () => undefined,
): Promise<ComputedIndicator[]> {
  const live = sql`select subject_id, site_id, status, consent_date, saved_form_count,
      sdv_verified_items, sdv_changed_items
    from subject_facts where study_id = ${studyId}`;
  const ratio = (numerator: RawBuilder<unknown>, denominator: RawBuilder<unknown>, scale: number) =>
    sql`case when ${denominator} > 0 then (${numerator})::float8 * ${scale} / (${denominator})::float8 end`;
  const perSubject = (key: KriKey, from: RawBuilder<unknown>): Part => ({
    keys: [key],
    query: sql`select f.site_id, coalesce(sum(c.n), 0)::float8 as numerator, count(*)::float8 as denominator,
        ${ratio(sql`coalesce(sum(c.n), 0)`, sql`count(*)`, 1)} as value
      from (${live}) f left join (${from}) c on c.subject_id = f.subject_id
      group by grouping sets ((f.site_id), ())`,
  });
  const reportRows = (report: string, extra: RawBuilder<unknown> = sql`true`) =>
    sql`select subject_id, count(*) as n from report_rows
      where study_id = ${studyId} and report = ${report} and ${extra} group by subject_id`;

  // The corrections of each subject's forms: value-change records of an already entered value, read
  // on the index (study_id, event_type, id). (A form's first save is its row's `first_saved_at`.)
  const corrections = sql`select subject_id, count(*) as n from audit_events
    where study_id = ${studyId} and event_type = 'data.item_changed' and subject_id is not null
      and before -> 'value' is not null and before -> 'value' <> 'null'::jsonb
    group by subject_id`;

  // Overdue as of the end of `today` in Korea, or of now when that is later than now (today's run).
  const cutoff = new Date(Math.min(Date.now(), startOfKoreanDay(today).getTime() + 86_400_000));
  const lateReport = sql`(r.first_submitted_at is not null and r.first_submitted_at > r.due_at)
    or (r.first_submitted_at is null and r.due_at < ${cutoff})`;

  const parts: Part[] = [
    {
      keys: ['queryRate'],
      query: sql`select f.site_id, coalesce(sum(q.n), 0)::float8 as numerator, coalesce(sum(v.n), 0)::float8 as denominator,
          ${ratio(sql`coalesce(sum(q.n), 0)`, sql`coalesce(sum(v.n), 0)`, 100)} as value
        from (${live}) f
        left join (select subject_id, count(*) as n from queries where study_id = ${studyId} group by subject_id) q
          on q.subject_id = f.subject_id
        left join (select fi.subject_id, count(*) as n from form_instances fi
            join item_values iv on iv.form_instance_id = fi.id
            where fi.subject_id in (select subject_id from subject_facts where study_id = ${studyId})
              and not iv.derived and iv.value <> 'null'::jsonb
            group by fi.subject_id) v on v.subject_id = f.subject_id
        group by grouping sets ((f.site_id), ())`,
    },
    {
      keys: ['queryAnswerDays'],
      query: sql`select f.site_id,
          coalesce(percentile_cont(0.5) within group (order by a.days), 0)::float8 as numerator,
          count(a.days)::float8 as denominator,
          percentile_cont(0.5) within group (order by a.days)::float8 as value
        from (${live}) f
        join (select q.subject_id, extract(epoch from (min(m.created_at) - q.opened_at)) / 86400.0 as days
            from queries q join query_messages m on m.query_id = q.id and m.kind = 'answer'
            where q.study_id = ${studyId} group by q.id, q.subject_id, q.opened_at) a on a.subject_id = f.subject_id
        group by grouping sets ((f.site_id), ())`,
    },
    {
      keys: ['entryLagDays'],
      query: sql`select f.site_id,
          coalesce(percentile_cont(0.5) within group (order by l.days), 0)::float8 as numerator,
          count(l.days)::float8 as denominator,
          percentile_cont(0.5) within group (order by l.days)::float8 as value
        from (${live}) f
        join (select fi.subject_id,
              greatest(0, (fi.first_saved_at at time zone 'Asia/Seoul')::date - v.visit_date) as days
            from form_instances fi
            join subject_visits v on v.subject_id = fi.subject_id and v.visit_key = fi.visit_key
            where fi.has_data and fi.subject_id in (select subject_id from subject_facts where study_id = ${studyId})
              and v.visit_date is not null) l on l.subject_id = f.subject_id
        group by grouping sets ((f.site_id), ())`,
    },
    perSubject(
      'missingForms',
      reportRows('missingForms', sql`(counts_from is null or counts_from <= ${today}::date)`),
    ),
    perSubject(
      'overdueVisits',
      sql`select v.subject_id, count(*) as n from subject_visits v
        join subject_facts f on f.subject_id = v.subject_id
        where f.study_id = ${studyId} and f.status = 'ongoing' and v.visit_date is null
          and v.window_closes < ${today}::date
        group by v.subject_id`,
    ),
    perSubject('protocolDeviations', reportRows('protocolDeviations')),
    ...(['adverseEventRate', 'seriousAdverseEventRate'] as const).map(
      (key): Part => ({
        keys: [key],
        query: sql`select f.site_id, coalesce(sum(e.n), 0)::float8 as numerator,
            coalesce(sum(greatest(${today}::date - f.consent_date::date, 0)), 0)::float8 / ${DAYS_PER_MONTH} as denominator,
            ${ratio(
              sql`coalesce(sum(e.n), 0)`,
              sql`coalesce(sum(greatest(${today}::date - f.consent_date::date, 0)), 0)`,
              DAYS_PER_MONTH,
            )} as value
          from (${live}) f
          left join (${reportRows('adverseEvents', key === 'seriousAdverseEventRate' ? sql`bucket = 'serious'` : sql`true`)}) e
            on e.subject_id = f.subject_id
          group by grouping sets ((f.site_id), ())`,
      }),
    ),
    {
      keys: ['screeningFailureRate'],
      query: sql`select f.site_id, count(*) filter (where f.status = 'screening_failure')::float8 as numerator,
          count(*)::float8 as denominator,
          ${ratio(sql`count(*) filter (where f.status = 'screening_failure')`, sql`count(*)`, 100)} as value
        from (${live}) f group by grouping sets ((f.site_id), ())`,
    },
    {
      keys: ['sdvFindings'],
      query: sql`select f.site_id, coalesce(sum(f.sdv_changed_items), 0)::float8 as numerator,
          coalesce(sum(f.sdv_verified_items + f.sdv_changed_items), 0)::float8 as denominator,
          ${ratio(sql`coalesce(sum(f.sdv_changed_items), 0)`, sql`coalesce(sum(f.sdv_verified_items + f.sdv_changed_items), 0)`, 100)} as value
        from (${live}) f group by grouping sets ((f.site_id), ())`,
    },
    {
      keys: ['correctionsPerForm'],
      query: sql`select f.site_id, coalesce(sum(c.n), 0)::float8 as numerator,
          coalesce(sum(f.saved_form_count), 0)::float8 as denominator,
          ${ratio(sql`coalesce(sum(c.n), 0)`, sql`coalesce(sum(f.saved_form_count), 0)`, 1)} as value
        from (${live}) f
        left join (${corrections}) c on c.subject_id = f.subject_id
        group by grouping sets ((f.site_id), ())`,
    },
    {
      // Issue 51: SAE reports not submitted within 24 hours of awareness — submitted after their due
      // time, or not submitted and past due at `cutoff` — over every report of the site.
      keys: ['overdueSaeReports'],
      query: sql`select r.site_id, count(*) filter (where ${lateReport})::float8 as numerator,
          count(*)::float8 as denominator,
          ${ratio(sql`count(*) filter (where ${lateReport})`, sql`count(*)`, 100)} as value
        from sae_reports r
        join subject_facts f on f.subject_id = r.subject_id
        where r.study_id = ${studyId}
        group by grouping sets ((r.site_id), ())`,
    },
  ];

  const subjects = await sql<{ site_id: number | null; n: number }>`select site_id, count(*)::int as n
    from subject_facts where study_id = ${studyId} group by grouping sets ((site_id), ())`.execute(db);
  const subjectsAt = new Map(subjects.rows.map((row) => [row.site_id ?? 0, Number(row.n)]));
  const sites = await db.selectFrom('sites').select('id').where('study_id', '=', studyId).execute();

  const found = new Map<string, ComputedIndicator>();
  for (const part of parts) {
    const result = await part.query.execute(db);
    for (const row of result.rows)
      for (const key of part.keys) {
        const siteId = row.site_id ?? 0;
        found.set(`${siteId}/${key}`, {
          siteId,
          key,
          value: row.value === null ? null : Number(row.value),
          numerator: Number(row.numerator),
          denominator: Number(row.denominator),
          subjects: subjectsAt.get(siteId) ?? 0,
        });
      }
    await onStep();
  }
  // Every site and the study get every indicator: one without rows has nothing to count (0 of 0).
  const indicators: ComputedIndicator[] = [];
  for (const siteId of [0, ...sites.map((site) => site.id)])
    for (const part of parts)
      for (const key of part.keys)
        indicators.push(
          found.get(`${siteId}/${key}`) ?? {
            siteId,
            key,
            value: null,
            numerator: 0,
            denominator: 0,
            subjects: subjectsAt.get(siteId) ?? 0,
          },
        );
  return indicators;
}

/** How many steps `computeIndicators` reports (one per statement), for the run's progress. */
export const INDICATOR_STEPS = 11;
