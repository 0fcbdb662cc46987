import {
  type QueryListFilter,
  queryAgeFilters,
  queryAssignees,
  queryListSortKeys,
  queryStateFilters,
  todayInKorea,
} from '@cdms/contract';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { demoStudyIds } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import {
  countListedQueries,
  countQueries,
  filteredQueries,
  pageOfQueries,
  type QueryListContext,
  sortedQueries,
} from './list-queries.ts';

/**
 * The query list reads its page one state at a time off indexes and its usual counts from
 * `query_list_totals` (issue 46). Over the living demo, its queries spread over opening days,
 * messages and assignees with ties on purpose, every state × sort × order, with filters and pages,
 * gives the rows, in the order, and the total that the single sorted and counted statement over
 * every matching query gives (`filteredQueries` + `sortedQueries`, which the download still reads).
 */
describeWithDatabase(
  'query list pages and counts against the sorted and counted statement',
  (database) => {
    it('gives the same rows, order and total for every state, sort, order, filter and page', async () => {
      const db = database().db;
      const { studyId } = await demoStudyIds(db);
      // Opening days 0–44 back, several queries a day (ties broken by id), messages at a few instants
      // (ties again), each assignee, and some answered and cancelled queries.
      await sql`update queries set
          opened_at = now() - make_interval(days => (id * 7) % 45, hours => id % 5),
          last_message_at = date_trunc('day', now()) - make_interval(days => id % 3),
          assignee = (array['site', 'monitor', 'dataManagement'])[1 + id % 3]
        where study_id = ${studyId}`.execute(db);
      await sql`update queries set status = 'answered' where study_id = ${studyId} and status = 'open' and id % 4 = 0`.execute(
        db,
      );
      await sql`update queries set status = 'cancelled', closed_at = now() - make_interval(days => id % 4)
        where study_id = ${studyId} and status = 'open' and id % 7 = 0`.execute(db);
      const current = await currentStudyDefinition(db, studyId);
      const sites = await db
        .selectFrom('sites')
        .select('id')
        .where('study_id', '=', studyId)
        .orderBy('id')
        .execute();
      const base: Omit<QueryListContext, 'scope'> = {
        studyId,
        definition: current?.definition ?? null,
        studyCode: 'TMP-2026',
        today: todayInKorea(),
      };
      const scopes: QueryListContext['scope'][] = ['all', new Set([sites[0]?.id ?? 0])];
      const defaults: QueryListFilter = {
        state: 'unresolved',
        kind: 'all',
        assignee: 'all',
        age: 'all',
        sort: 'age',
        order: 'desc',
      };
      const filters: Partial<QueryListFilter>[] = [
        {},
        { kind: 'system' },
        { kind: 'manual' },
        ...queryAssignees.map((assignee) => ({ assignee })),
        ...queryAgeFilters.map((age) => ({ age })),
        { text: '확인' },
        { subject: '01' },
        { visitKey: 'screening' },
      ];
      const pages = [
        { page: 1, size: 10 },
        { page: 2, size: 10 },
        { page: 3, size: 7 },
      ];
      let compared = 0;
      for (const scope of scopes) {
        const context = { ...base, scope };
        for (const state of queryStateFilters) {
          for (const sort of queryListSortKeys) {
            for (const order of ['asc', 'desc'] as const) {
              for (const extra of filters) {
                // Every sort with the plain filter, every filter with the list's default sort.
                if (Object.keys(extra).length > 0 && !(sort === 'age' || sort === 'subjectId')) continue;
                const filter = { ...defaults, ...extra, state, sort, order };
                const label = JSON.stringify({ scope: scope === 'all' ? 'all' : [...scope], ...filter });
                const expectedTotal = await countQueries(filteredQueries(db, context, filter));
                expect(await countListedQueries(db, context, filter), label).toBe(expectedTotal);
                for (const { page, size } of pages) {
                  const expected = await sortedQueries(filteredQueries(db, context, filter), filter, context)
                    .limit(size)
                    .offset((page - 1) * size)
                    .execute();
                  const rows = await pageOfQueries(db, context, filter, { offset: (page - 1) * size, size });
                  expect(
                    rows.map((row) => [row.id, row.screening_number, row.site_code, row.age_days]),
                    `${label} page ${page} of ${size}`,
                  ).toEqual(
                    expected.map((row) => [row.id, row.screening_number, row.site_code, row.age_days]),
                  );
                  if (expected.length > 0) compared += 1;
                }
              }
            }
          }
        }
      }
      // The subject's screening number the trigger copied onto each of its queries.
      const copies = await sql<{ differ: number }>`
        select count(*)::int as differ from queries join subjects on subjects.id = queries.subject_id
        where queries.screening_number is distinct from subjects.screening_number`.execute(db);
      expect(copies.rows[0]?.differ).toBe(0);
      // The demo's queries fill pages in most of these cases: the comparison compares.
      expect(compared).toBeGreaterThan(300);
    });
  },
  { seed: 'living-demo' },
);
