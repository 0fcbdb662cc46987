import { todayInKorea } from '@cdms/contract';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { demoStudyIds } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { ageBucketExpression } from '../queries/list-queries.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { countVisitCompletion } from '../summary/count-visit-completion.ts';
import { summarizeKeyMeasures } from '../summary/summarize-key-measures.ts';
import { enrollmentReport } from './enrollment-report.ts';
import { queryAgingReport } from './query-aging-report.ts';
import type { ReportContext } from './report-context.ts';

/**
 * The enrollment and query-aging reports and the summary count the read model's stored rows (issue 46). Over the
 * living demo — subjects at every stage, screening failures with reasons, queries open, answered,
 * closed — their figures equal what grouped queries over `subject_facts` and `queries` themselves
 * give: the statements these reports ran before, kept here as the recount.
 */
describeWithDatabase(
  'reports counted from stored rows against a recount of the raw tables',
  (database) => {
    async function contextOf(): Promise<ReportContext> {
      const db = database().db;
      const { studyId } = await demoStudyIds(db);
      const sites = await db.selectFrom('sites').select('id').where('study_id', '=', studyId).execute();
      const current = await currentStudyDefinition(db, studyId);
      return {
        studyId,
        studyCode: 'TMP-2026',
        scope: 'all',
        siteIds: sites.map((site) => site.id),
        definition: current?.definition ?? null,
        today: todayInKorea(),
      };
    }

    it('counts enrollment per site, month and failure reason as subject_facts does', async () => {
      const db = database().db;
      const context = await contextOf();
      const report = await enrollmentReport(db, context, { deviation: 'all', serious: 'all' });
      const inScope = sql`f.study_id = ${context.studyId}`;
      const bySite = await sql<{ site_id: number; screened: number; failures: number; randomized: number }>`
        select f.site_id, count(*)::int as screened,
          (count(*) filter (where f.status = 'screening_failure'))::int as failures,
          (count(*) filter (where f.randomization_number is not null))::int as randomized
        from subject_facts f where ${inScope} group by f.site_id`.execute(db);
      for (const site of report.sites) {
        const row = bySite.rows.find((candidate) => candidate.site_id === site.siteId);
        expect([site.screened, site.screeningFailures, site.randomized]).toEqual([
          row?.screened ?? 0,
          row?.failures ?? 0,
          row?.randomized ?? 0,
        ]);
      }
      expect(report.sites.reduce((sum, site) => sum + site.screened, 0)).toBeGreaterThan(10);
      const months = await sql<{ month: string; screened: number; failures: number; randomized: number }>`
        select month, sum(screened)::int as screened, sum(failures)::int as failures, sum(randomized)::int as randomized
        from (
          select f.consent_month as month, 1 as screened,
            case when f.status = 'screening_failure' then 1 else 0 end as failures, 0 as randomized
          from subject_facts f where ${inScope}
          union all
          select to_char((f.randomized_at at time zone 'UTC') + interval '9 hours', 'YYYY-MM'), 0, 0, 1
          from subject_facts f where ${inScope} and f.randomized_at is not null
        ) m group by month order by month`.execute(db);
      expect(report.months).toEqual(
        months.rows.map((row) => ({
          month: row.month,
          screened: row.screened,
          screeningFailures: row.failures,
          randomized: row.randomized,
        })),
      );
      const reasons = await sql<{ reason: string | null; count: number }>`
        select f.screening_failure_reason as reason, count(*)::int as count
        from subject_facts f where ${inScope} and f.status = 'screening_failure'
        group by f.screening_failure_reason order by count(*) desc, f.screening_failure_reason nulls last`.execute(
        db,
      );
      expect(report.failureReasons.map((entry) => [entry.reason?.code ?? null, entry.count])).toEqual(
        reasons.rows.map((row) => [row.reason, row.count]),
      );
      expect(report.failureReasons.length).toBeGreaterThan(0);
    });

    it('ages the unresolved queries and takes the medians as the queries themselves give', async () => {
      const db = database().db;
      const context = await contextOf();
      const report = await queryAgingReport(db, context, { deviation: 'all', serious: 'all' });
      const inScope = sql`queries.study_id = ${context.studyId}
        and exists (select 1 from subjects s where s.id = queries.subject_id and s.deleted_at is null)`;
      const koreanDay = (column: string) =>
        sql`((${sql.ref(column)} at time zone 'UTC') + interval '9 hours')::date`;
      const aging = await sql<{
        site_id: number | null;
        state: 'open' | 'answered';
        bucket: string;
        count: number;
      }>`
        select site_id, state, bucket, count(*)::int as count from (
          select queries.site_id, queries.status as state, ${ageBucketExpression(context.today)} as bucket
          from queries where ${inScope} and queries.status in ('open', 'answered')) aged
        group by grouping sets ((site_id, state, bucket), (state, bucket))`.execute(db);
      const medians = await sql<{ site_id: number | null; answer: number | null; close: number | null }>`
        select site_id,
          round((percentile_cont(0.5) within group (order by days_to_answer))::numeric, 1)::float as answer,
          round((percentile_cont(0.5) within group (order by days_to_close))::numeric, 1)::float as close
        from (
          select queries.site_id,
            (select ${koreanDay('m.created_at')} from query_messages m
              where m.query_id = queries.id and m.kind = 'answer' order by m.created_at, m.id limit 1)
              - ${koreanDay('queries.opened_at')} as days_to_answer,
            case when queries.status = 'closed' and queries.closed_at is not null
              then ${koreanDay('queries.closed_at')} - ${koreanDay('queries.opened_at')} end as days_to_close
          from queries where ${inScope}) timed
        group by grouping sets ((site_id), ())`.execute(db);
      const lines = [
        ...report.sites.map((site) => ({ siteId: site.siteId as number | null, line: site })),
        { siteId: null, line: report.total },
      ];
      for (const { siteId, line } of lines) {
        for (const state of ['open', 'answered'] as const) {
          for (const [bucket, count] of Object.entries(line[state])) {
            const row = aging.rows.find(
              (candidate) =>
                candidate.site_id === siteId && candidate.state === state && candidate.bucket === bucket,
            );
            expect(count, `${siteId} ${state} ${bucket}`).toBe(row?.count ?? 0);
          }
        }
        const median = medians.rows.find((candidate) => candidate.site_id === siteId);
        expect([line.medianDaysToAnswer, line.medianDaysToClose], `site ${siteId}`).toEqual([
          median?.answer ?? null,
          median?.close ?? null,
        ]);
      }
      // The demo has queries in both states and answered and closed ones, so the comparison compares.
      expect(
        report.total.open['0-7'] +
          report.total.open['8-14'] +
          report.total.open['15-30'] +
          report.total.open['31+'],
      ).toBeGreaterThan(0);
      expect(report.total.medianDaysToAnswer).not.toBeNull();
      expect(report.total.medianDaysToClose).not.toBeNull();
    });

    it("counts the summary's visit completion and averages its key measures as the visit rows themselves give", async () => {
      const db = database().db;
      const context = await contextOf();
      const completion = await countVisitCompletion(db, context);
      const today = sql`${context.today}::date`;
      const windows = await sql<{
        key: string;
        in_window: number;
        out_of_window: number;
        overdue: number;
        not_yet_due: number;
      }>`
        select w.visit_key || '|' || w.site_id as key,
          (count(*) filter (where w.actual_date between w.earliest_date and w.latest_date))::int as in_window,
          (count(*) filter (where w.actual_date < w.earliest_date or w.actual_date > w.latest_date))::int as out_of_window,
          (count(*) filter (where w.actual_date is null and w.subject_status = 'ongoing' and w.latest_date < ${today}))::int as overdue,
          (count(*) filter (where w.actual_date is null and w.subject_status = 'ongoing' and w.latest_date >= ${today}))::int as not_yet_due
        from subject_visit_windows w where w.study_id = ${context.studyId}
        group by w.visit_key, w.site_id`.execute(db);
      expect(Object.fromEntries([...completion].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual(
        Object.fromEntries(
          windows.rows
            .sort((a, b) => (a.key < b.key ? -1 : 1))
            .map((row) => [
              row.key,
              {
                inWindow: row.in_window,
                outOfWindow: row.out_of_window,
                overdue: row.overdue,
                notYetDue: row.not_yet_due,
              },
            ]),
        ),
      );
      const visits = (context.definition?.visits ?? []).map((visit) => visit.key);
      const measured = await summarizeKeyMeasures(db, context, visits, null, false);
      const recounted = await sql<{
        visit_key: string;
        measure: string;
        n: number;
        mean: number;
        median: number;
      }>`
        select sv.visit_key, m.key as measure, count(*)::int as n,
          round(avg(m.value::float8)::numeric, 1)::float as mean,
          round((percentile_cont(0.5) within group (order by m.value::float8))::numeric, 1)::float as median
        from subject_facts f
        join subject_visits sv on sv.subject_id = f.subject_id and sv.role_facts ? 'measures'
        cross join lateral jsonb_each_text(sv.role_facts -> 'measures') as m(key, value)
        where f.study_id = ${context.studyId}
        group by sv.visit_key, m.key order by sv.visit_key, m.key`.execute(db);
      const key = (line: { visitKey: string; measure: string }) => `${line.visitKey}/${line.measure}`;
      expect(
        measured.stats
          .map((line) => ({ key: key(line), n: line.n, mean: line.mean, median: line.median }))
          .sort((a, b) => (a.key < b.key ? -1 : 1)),
      ).toEqual(
        recounted.rows
          .map((row) => ({
            key: `${row.visit_key}/${row.measure}`,
            n: row.n,
            mean: row.mean,
            median: row.median,
          }))
          .sort((a, b) => (a.key < b.key ? -1 : 1)),
      );
      expect(measured.stats.length).toBeGreaterThan(0);
    });
  },
  { seed: 'living-demo' },
);
