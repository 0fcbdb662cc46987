import { BENCH_PASSWORD, READER_EMAIL } from './build-study/bench-study.ts';
import { type Headers, HttpClient, signIn } from './load/http-client.ts';
import type { VirtualUser } from './load/run-load.ts';
import { BENCH_FORM, type Workload } from './workload.ts';

// The scenarios: what one virtual user does on each call. Reads are the data manager's (every
// site); saves are the site coordinators', each virtual user on subjects of its own.

export type ScenarioName =
  | 'subject list'
  | 'dashboard'
  | 'subject-info'
  | 'visit alarms'
  | 'query list'
  | 'SDV progress'
  | 'readiness board'
  | 'audit review'
  | 'overview'
  | 'form read'
  | 'form save'
  | 'CSV export'
  | 'enrollment report'
  | 'missing forms report'
  | 'query aging report'
  | 'protocol deviations report'
  | 'AE listing report'
  | 'study summary'
  | 'lab results'
  | 'monitoring panel'
  | 'monitoring page'
  | 'signal list'
  | 'review listing';

export interface Scenario {
  name: ScenarioName;
  users: number;
  /** At least this many measured requests, however long they take. */
  minimumRequests?: number;
  /**
   * Signs the virtual users in and returns them. With several server processes (`--servers`), user
   * i talks to `baseUrls[i mod n]` throughout.
   */
  prepare(baseUrls: readonly string[], workload: Workload): Promise<PreparedScenario>;
}

export interface PreparedScenario {
  users: VirtualUser[];
  /**
   * Re-reads what the users remember of the data (a saver's form version), before they go on after
   * other scenarios' users changed it: the savers of 1, 8 and 32 users share subjects and take turns.
   */
  refresh?(): Promise<void>;
  /** Ends the users' connections. */
  close(): void;
}

/** The signals as a monitor pages them: strongest first, then by kind and state. */
const SIGNAL_LIST_QUERIES = [
  'page=1&size=20',
  'page=3&size=20',
  'kind=digitPreference&page=1&size=20',
  'state=open&page=2&size=50',
];

/** A form's review listing: by subject, by the last save, not yet reviewed, a search, a later page. */
const REVIEW_LISTING_QUERIES = [
  'page=1&size=50',
  'sort=savedAt&dir=desc&page=1&size=50',
  'review=not_reviewed&page=2&size=50',
  'search=S05&page=1&size=50',
  'page=20&size=50',
];

/** The list as people use it: filters, sorts and pages in turn. */
const LIST_QUERIES = [
  'page=1&size=10',
  'status=Ongoing&sort=age&order=desc&page=1&size=50',
  'search=S05&page=1&size=10',
  'sort=lastVisitDate&order=desc&page=3&size=10',
  'signature=true&size=100',
  'range=3&dateType=consentDate&sort=unresolvedQuery&order=desc&page=2&size=10',
  'status=Screening-failure&sort=site&page=1&size=10',
  'sort=registrationNumber&order=asc&page=10&size=50',
];

/** The query list as monitors use it: unresolved first, by state and age, a site, the oldest, text. */
const QUERY_LIST_QUERIES = [
  'page=1&size=10',
  'state=all&sort=openedAt&order=desc&page=1&size=50',
  'state=open&age=31%2B&page=1&size=10',
  'kind=system&sort=subjectId&order=asc&page=2&size=10',
  'state=answered&sort=lastMessageAt&order=desc&size=100',
  'text=%ED%99%95%EC%9D%B8&page=1&size=10',
];

const ALARM_QUERIES = ['page=1&size=10', 'state=overdue&page=1&size=50', 'state=outOfWindow&page=2&size=10'];

/** The monitor's SDV page: progress by site, then subjects filtered and sorted in turn. */
const SDV_PATHS = [
  'sdv/sites',
  'sdv/subjects?page=1&size=10',
  'sdv/subjects?state=incomplete&sort=percent&order=asc&page=1&size=50',
  'sdv/subjects?state=changed&page=1&size=10',
];

/** The data manager's lock board: sites, then subjects not ready, by what stands in the way. */
const READINESS_PATHS = [
  'readiness/sites',
  'readiness/subjects?page=1&size=10',
  'readiness/subjects?state=notReady&sort=openQueries&order=desc&page=1&size=50',
  'readiness/subjects?state=ready&page=2&size=10',
];

/**
 * The standard reports (issue 17) as the data manager reads them: the first page, a filter, a page
 * further on. Every page asked is full at 500 subjects too (the bench study has ~3,300 missing forms,
 * 80 deviations — 48 of them missing pregnancy tests — and 97 adverse events, 32 serious, per 500
 * subjects): a page past the end of the small study's listing would cost less for want of rows, and
 * the sizes would not be compared on the same work (issue 46: "the page costs the same").
 */
const REPORT_QUERIES: Record<string, readonly string[]> = {
  enrollment: [''],
  missingForms: ['page=1&size=20', 'page=5&size=100'],
  queryAging: [''],
  protocolDeviations: ['page=1&size=20', 'deviation=missingPregnancyTest&page=1&size=20', 'page=3&size=20'],
  adverseEvents: ['page=1&size=20', 'serious=serious&page=1&size=20', 'page=4&size=20'],
};

/**
 * The lab page's listing (issue 17 item 3, issue 43 item 13) as the data manager reads it: the first
 * page, by flag, one test, a subject search that finds nothing (an empty page), a page further on.
 */
const LAB_RESULT_QUERIES = [
  'page=1&size=10',
  'flag=H&page=1&size=50',
  'flag=CS&page=1&size=10',
  'testKey=glucose&page=1&size=10',
  'subject=no-such-subject&page=1&size=10',
  'page=5&size=100',
];

function cycle<T>(values: readonly T[]): () => T {
  let next = 0;
  return () => {
    const value = values[next % values.length] as T;
    next += 1;
    return value;
  };
}

/** A GET scenario as the data manager: `pathOf` gives each call's path. */
function readScenario(
  name: ScenarioName,
  pathsOf: (workload: Workload) => () => string,
  options: { minimumRequests?: number } = {},
): Scenario {
  return {
    name,
    users: 1,
    ...options,
    async prepare(baseUrls, workload) {
      const client = new HttpClient(baseUrls[0] as string);
      const headers = await signIn(client, READER_EMAIL, BENCH_PASSWORD);
      const nextPath = pathsOf(workload);
      const user: VirtualUser = async () => {
        const response = await client.request('GET', nextPath(), headers);
        return { status: response.status, body: response.body };
      };
      return { users: [user], close: () => client.close() };
    },
  };
}

export function readScenarios(): Scenario[] {
  const study = (workload: Workload) => `/api/studies/${workload.studyId}`;
  return [
    readScenario('subject list', (workload) => {
      const next = cycle(LIST_QUERIES);
      return () => `${study(workload)}/subjects?${next()}`;
    }),
    readScenario('dashboard', (workload) => () => `${study(workload)}/dashboard`),
    readScenario('subject-info', (workload) => () => `${study(workload)}/subject-info`),
    readScenario('visit alarms', (workload) => {
      const next = cycle(ALARM_QUERIES);
      return () => `${study(workload)}/visit-alarms?${next()}`;
    }),
    readScenario('query list', (workload) => {
      const next = cycle(QUERY_LIST_QUERIES);
      return () => `${study(workload)}/queries?${next()}`;
    }),
    readScenario('SDV progress', (workload) => {
      const next = cycle(SDV_PATHS);
      return () => `${study(workload)}/${next()}`;
    }),
    readScenario('readiness board', (workload) => {
      const next = cycle(READINESS_PATHS);
      return () => `${study(workload)}/${next()}`;
    }),
    // The audit page as it opens: the first page of the whole study's trail, newest first.
    readScenario('audit review', (workload) => () => `${study(workload)}/audit?page=1&size=20`),
    readScenario('overview', (workload) => {
      const next = cycle(spread(workload.readSubjects));
      return () => `${study(workload)}/subjects/${next()}/overview`;
    }),
    readScenario('form read', (workload) => {
      const next = cycle(spread(workload.readSubjects));
      return () => `${study(workload)}/subjects/${next()}/forms/${BENCH_FORM.visitKey}/${BENCH_FORM.formKey}`;
    }),
    readScenario('CSV export', (workload) => () => `${study(workload)}/subjects/export?format=csv`, {
      minimumRequests: 3,
    }),
    ...(
      [
        ['enrollment report', 'enrollment'],
        ['missing forms report', 'missingForms'],
        ['query aging report', 'queryAging'],
        ['protocol deviations report', 'protocolDeviations'],
        ['AE listing report', 'adverseEvents'],
      ] as const
    ).map(([name, report]) =>
      readScenario(name, (workload) => {
        const next = cycle(REPORT_QUERIES[report] ?? ['']);
        return () => `${study(workload)}/reports/${report}?${next()}`;
      }),
    ),
    // The study summary (issue 17 item 2): every site, as the page opens.
    readScenario('study summary', (workload) => () => `${study(workload)}/summary`),
    readScenario('lab results', (workload) => {
      const next = cycle(LAB_RESULT_QUERIES);
      return () => `${study(workload)}/lab-results?${next()}`;
    }),
    // Central monitoring (issue 50 item 6): the dashboard's panel and the page read the stored run
    // (the build ran it); the signals page by page in their order, and with the usual filters.
    readScenario('monitoring panel', (workload) => () => `${study(workload)}/monitoring/panel`),
    readScenario('monitoring page', (workload) => () => `${study(workload)}/monitoring`),
    readScenario('signal list', (workload) => {
      const next = cycle(SIGNAL_LIST_QUERIES);
      return () => `${study(workload)}/monitoring/signals?${next()}`;
    }),
    // A form's review listing across subjects (issue 50 item 4), paged, filtered and sorted in SQL.
    readScenario('review listing', (workload) => {
      const next = cycle(REVIEW_LISTING_QUERIES);
      return () => `${study(workload)}/review-listings/${BENCH_FORM.formKey}?${next()}`;
    }),
  ];
}

/** The subjects in a scattered order, so consecutive reads do not hit neighbouring rows. */
function spread(ids: number[]): number[] {
  const step = 7919;
  return ids.map((_, index) => ids[(index * step) % ids.length] as number);
}

interface FormState {
  values: Record<string, unknown>;
  derived: Record<string, unknown>;
  version: number;
}

/**
 * `users` coordinators each saving the vital signs of a subject of their own, again and again: the
 * heart rate alternates by one beat, with the reason a change needs, naming the version it read.
 */
export function saveScenario(users: number): Scenario {
  return {
    name: 'form save',
    users,
    async prepare(baseUrls, workload) {
      if (workload.saverSubjects.length < users)
        throw new Error(
          `${users} savers need ${users} subjects with vital signs, the study has ${workload.saverSubjects.length}`,
        );
      const clients: HttpClient[] = [];
      const virtualUsers: VirtualUser[] = [];
      const refreshes: (() => Promise<void>)[] = [];
      for (const [index, { subjectId, email }] of workload.saverSubjects.slice(0, users).entries()) {
        const client = new HttpClient(baseUrls[index % baseUrls.length] as string);
        clients.push(client);
        const headers: Headers = {
          ...(await signIn(client, email, BENCH_PASSWORD)),
          'content-type': 'application/json',
        };
        const path = `/api/studies/${workload.studyId}/subjects/${subjectId}/forms/${BENCH_FORM.visitKey}/${BENCH_FORM.formKey}`;
        let state: FormState;
        const readForm = async () => {
          const read = await client.request('GET', path, { cookie: headers.cookie ?? '' });
          if (read.status !== 200) throw new Error(`reading ${path}: ${read.status} ${read.body}`);
          state = JSON.parse(read.body) as FormState;
        };
        await readForm();
        refreshes.push(readForm);
        virtualUsers.push(async () => {
          const entered = Object.fromEntries(
            Object.entries(state.values).filter(([key]) => !(key in state.derived)),
          );
          const heartRate = Number(entered.heartRate ?? 70);
          const body = JSON.stringify({
            values: { ...entered, heartRate: heartRate % 2 === 0 ? heartRate + 1 : heartRate - 1 },
            version: state.version,
            reasons: { heartRate: '벤치마크: 원자료 재확인 후 정정' },
          });
          const response = await client.request('PUT', path, headers, body);
          if (response.status === 200) state = JSON.parse(response.body) as FormState;
          return { status: response.status, body: response.body };
        });
      }
      return {
        users: virtualUsers,
        refresh: async () => {
          await Promise.all(refreshes.map((readForm) => readForm()));
        },
        close: () => {
          for (const client of clients) client.close();
        },
      };
    },
  };
}
