import type { Page } from '@playwright/test';
import { type DemoAccount, demoAccount, signInThroughApi } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// axe-core over every route of the app, each as a demo role that can open it, in Korean: no violation
// of any impact. Fix the app, not the rule set: a rule is only ever turned off here for a proven axe
// false positive, with the reason beside it (none so far).

const STUDY_ID = 1;

interface Route {
  /** What the step is called in the report. */
  name: string;
  url: string;
  /** Shown once the page has what it is about (its data loaded). */
  ready: (page: Page) => ReturnType<Page['locator']>;
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const studyPage = (name: string, path: string): Route => ({
  name,
  url: `/${path}/${STUDY_ID}`,
  ready: heading,
});

/** Opens each route and expects no violation; every route is reported, not just the first that fails. */
async function checkRoutes(page: Page, routes: Route[]) {
  for (const route of routes) {
    await test.step(route.name, async () => {
      await page.goto(route.url);
      await expect(route.ready(page).first()).toBeVisible();
      await waitForQuietNetwork(page);
      expect.soft(await axeViolations(page), `${route.name} (${route.url})`).toEqual([]);
    });
  }
}

interface SubjectRow {
  pk: number;
  subjectId: string;
  registrationNumber: string | null;
  status: string;
}

/** A subject the signed-in user sees, randomized and ongoing where there is one (the fullest casebook). */
async function aSubject(page: Page): Promise<SubjectRow> {
  const response = await page.request.get(`/api/studies/${STUDY_ID}/subjects?size=100`);
  expect(response.status()).toBe(200);
  const { subjects } = (await response.json()) as { subjects: SubjectRow[] };
  const subject =
    subjects.find((row) => row.registrationNumber && row.status === 'Ongoing') ??
    subjects.find((row) => row.registrationNumber) ??
    subjects[0];
  if (!subject) throw new Error('the demo has no subject for this user');
  return subject;
}

function subjectQuery(subject: SubjectRow): string {
  const query = new URLSearchParams({ 'subject-id': subject.subjectId, 'subject-pk': String(subject.pk) });
  if (subject.registrationNumber) query.set('registration-number', subject.registrationNumber);
  return query.toString();
}

/** The overview and the given forms of one subject. */
function subjectRoutes(subject: SubjectRow, forms: Array<[visit: string, form: string]>): Route[] {
  const query = subjectQuery(subject);
  return [
    {
      name: 'subject overview',
      url: `/subject-list/subject/${STUDY_ID}?${query}`,
      ready: (page) => page.locator('[data-form-row]'),
    },
    ...forms.map(([visit, form]) => ({
      name: `subject detail ${visit}/${form}`,
      url: `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=${visit}&depth-2=${form}`,
      ready: (page: Page) => page.locator(`[data-form="${form}"]`),
    })),
  ];
}

/** Every form a site user fills, in their visits (editable for PI, SI and CRC). */
const EVERY_KIND_OF_FORM: Array<[string, string]> = [
  ['consentScreening', 'consentScreening'],
  ['v1', 'visitDay'],
  ['v1', 'demographicInfo'],
  ['v1', 'diseaseBasicInfo'],
  ['v1', 'bodyMeasurement'],
  ['v1', 'physicalExam'],
  ['v1', 'medicalHistory'],
  ['v1', 'vitalSigns'],
  ['v1', 'labTest'],
  ['v1', 'pregnancyTest'],
  ['v1', 'otoscopyEndoscopy'],
  ['v1', 'tympanicPhoto'],
  ['v1', 'tbctImaging'],
  ['v1', 'impedanceAudiometry'],
  ['v1', 'ptaTest'],
  ['v1', 'inclusionExclusionEval'],
  ['v2', 'randomizationNumber'],
  ['v2', 'deviceApplication'],
  ['v3', 'interestAdverseEvent'],
  ['all', 'adverseEvent'],
  ['all', 'concomitantDrugs'],
  ['all', 'treatmentInvestigation'],
  ['all', 'endExamination'],
  ['all', 'testDirectorSigning'],
];

/** Read-only forms (monitors, data managers) and the signing form, whose panel differs per role. */
const SOME_FORMS: Array<[string, string]> = [
  ['v1', 'demographicInfo'],
  ['v1', 'labTest'],
  ['all', 'adverseEvent'],
  ['all', 'testDirectorSigning'],
];

/** Pages of the reduced (task list) shell and the signed-in landing page: every role opens them. */
const everyoneRoutes: Route[] = [
  { name: 'landing (signed in)', url: '/', ready: heading },
  { name: 'task list (cards)', url: '/task-list', ready: (page) => page.getByTestId('study-card') },
  { name: 'task list (list)', url: '/task-list?view=list', ready: (page) => page.getByTestId('study-row') },
  { name: 'ended task list', url: '/task-end-list', ready: heading },
  { name: 'online manual', url: '/help/manual', ready: heading },
  { name: 'terms of use', url: '/help/terms', ready: heading },
  { name: 'form preview', url: '/test', ready: (page) => page.locator('[data-form]') },
];

/** The menu entries both sets have (PI and CRA). */
const sharedStudyRoutes: Route[] = [
  studyPage('dashboard', 'dashboard'),
  studyPage('task alarm', 'task-alarm'),
  { name: 'subject list', url: `/subject-list/${STUDY_ID}`, ready: (page) => page.locator('tbody tr') },
  studyPage('notice list', 'notice'),
  studyPage('guideline', 'guideline'),
  studyPage('task notices', 'notice/tasks'),
];

/** Pages whose content depends on the role: the menu set, the cards, the panels and counts. */
const roleDependentRoutes: Route[] = [
  { name: 'task list (cards)', url: '/task-list', ready: (page) => page.getByTestId('study-card') },
  studyPage('dashboard', 'dashboard'),
  { name: 'subject list', url: `/subject-list/${STUDY_ID}`, ready: (page) => page.locator('tbody tr') },
];

/**
 * The query list (issue 14): in the CRA menu; site users reach it from their counts. Every state, so
 * the demo's queries fill the table (a monitor sees the selection column, a site user does not).
 */
const queryListRoute: Route = {
  name: 'query list',
  url: `/query/${STUDY_ID}?state=all`,
  ready: (page) => page.locator('tbody tr'),
};

/**
 * SDV and the readiness board (issue 15): a monitor verifies and freezes, a data manager changes the
 * plan and locks (the board's selection column and the plan's button differ per role).
 */
const sdvRoute: Route = {
  name: 'sdv',
  url: `/sdv/${STUDY_ID}`,
  ready: (page) => page.locator('tbody tr[data-subject]'),
};
/** Review listings (issue 50 item 4): the first form across subjects, its cells as toggle buttons. */
const reviewListingRoute: Route = {
  name: 'review listings',
  url: `/review/${STUDY_ID}?table=vitalSigns`,
  ready: (page) => page.locator('tbody tr[data-subject]'),
};
const freezingRoute: Route = {
  name: 'freezing (readiness board)',
  url: `/freezing/${STUDY_ID}`,
  ready: (page) => page.locator('tbody tr[data-subject]'),
};

/** The standard reports (issue 17; CRA menu): the default report, enrollment, with its tables. */
const reportRoute: Route = {
  name: 'reports',
  url: `/report/${STUDY_ID}`,
  ready: (page) => page.locator('tbody tr').first(),
};

/** The adverse event listing with its serious rows highlighted and the events-of-interest chart. */
const adverseEventReportRoute: Route = {
  name: 'reports (adverse events)',
  url: `/report/${STUDY_ID}?report=adverseEvents`,
  ready: (page) => page.locator('tbody tr').first(),
};

/** The study's audit trail (issue 16): CRA (their sites), DM and ADMIN. */
const auditRoute: Route = {
  name: 'audit trail',
  url: `/audit/${STUDY_ID}`,
  ready: (page) => page.locator('tbody tr[data-event]').first(),
};

/** The SDV page with one subject unfolded to its visits and forms. */
function sdvSubjectRoute(subject: SubjectRow): Route {
  return {
    name: 'sdv (a subject unfolded)',
    url: `/sdv/${STUDY_ID}?open=${subject.pk}`,
    ready: (page) => page.locator('li[data-form-state]'),
  };
}

/**
 * Data export (issue 16): the data manager's form and the list of exports with their progress bars
 * (the demo has a finished one). A monitor sees the entry in the CRA menu and the page says who may
 * export (the server refuses the CRA the data).
 */
const dataRoute: Route = {
  name: 'data (exports)',
  url: `/data/${STUDY_ID}`,
  ready: (page) => page.getByRole('progressbar'),
};

/**
 * Lab normal ranges and the out-of-range listing (issue 17 item 3): the demo's ranges fill the first
 * table and its out-of-range results the second; a DM sees the manage column and the add button.
 */
const labRoute: Route = {
  name: 'lab (normal ranges)',
  url: `/lab/${STUDY_ID}`,
  // The listing's count: both tables have their rows by then (the ranges come first).
  ready: (page) => page.locator('[aria-live="polite"]', { hasText: /\d/ }),
};

/**
 * The study summary (issue 17 item 2): the four panels with their charts and tables; the subject
 * total of the status table is there once the answer is.
 */
const summaryRoute: Route = {
  name: 'summary',
  url: `/summary/${STUDY_ID}`,
  ready: (page) => page.getByTestId('summary-subject-total'),
};

/** The CRA set's own entries. */
const craOnlyRoutes: Route[] = [
  queryListRoute,
  studyPage('guideline register', 'guideline/register'),
  sdvRoute,
  reviewListingRoute,
  freezingRoute,
  auditRoute,
  reportRoute,
  studyPage('data (not allowed to the monitor)', 'data'),
  labRoute,
  summaryRoute,
  ...['alarm-log', 'system-e-training'].map((path) => studyPage(path, path)),
];

/** A notice to open (the demo has none): registered by a writer through the API. */
async function aNotice(page: Page): Promise<number> {
  const me = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const response = await page.request.post(`/api/studies/${STUDY_ID}/notices`, {
    headers: { 'x-csrf-token': me.csrfToken },
    data: {
      title: '접근성 점검 공지',
      contentHtml:
        '<h2>방문 일정</h2><p><strong>다음 주</strong> 방문 일정을 확인하세요.</p><ul><li>준비물</li></ul>',
      pinned: true,
      visible: true,
      scope: 'study',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

function noticeRoutes(noticeId: number, canWrite: boolean): Route[] {
  return [
    {
      name: 'notice detail',
      url: `/notice/detail/${STUDY_ID}?notice-pk=${noticeId}`,
      ready: (page) => page.getByRole('heading', { name: '접근성 점검 공지' }),
    },
    ...(canWrite
      ? [
          studyPage('notice register', 'notice/register'),
          {
            name: 'notice edit',
            url: `/notice/register/${STUDY_ID}?notice-pk=${noticeId}`,
            ready: (page: Page) => page.getByRole('textbox').first(),
          },
        ]
      : []),
  ];
}

let noticeId: number;

test.describe('accessibility (axe-core, Korean)', () => {
  // The longest file of the suite (minutes of axe): its tests only read, and each signs in itself,
  // so they spread over the workers (each with its own server; beforeAll runs once per worker).
  test.describe.configure({ mode: 'parallel' });

  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext({ baseURL: e2eServer().baseUrl });
    const page = await context.newPage();
    await signInThroughApi(page, demoAccount('CRA'));
    noticeId = await aNotice(page);
    await context.close();
  });

  test('signed out: the landing page, its login dialog and the not-found page', async ({ page }) => {
    test.setTimeout(90_000);
    await checkRoutes(page, [
      { name: 'landing', url: '/', ready: heading },
      { name: 'not found', url: '/404', ready: heading },
    ]);
    await test.step('login dialog', async () => {
      await page.goto('/');
      await page.getByRole('button', { name: '로그인' }).click();
      await expect(page.getByRole('dialog', { name: '로그인' })).toBeVisible();
      expect.soft(await axeViolations(page), 'login dialog').toEqual([]);
    });
  });

  /**
   * Every route, checked as the role that shows its fullest form; every other role on the pages whose
   * content depends on the role (its menu set, the task list, dashboard, subject list and casebook
   * with its panels and read-only forms). Pages that are the same for everyone (help, terms, the form
   * preview) once per menu set: checking identical pages under five roles took ten
   * minutes of CI and found nothing the first pass did not.
   */
  const roles: Array<{
    role: DemoAccount['role'];
    title: string;
    routes: (subject: SubjectRow) => Route[];
  }> = [
    {
      role: 'CRC',
      title: 'CRC (PI menu): every page of the site set, every kind of form in edit mode',
      routes: (subject) => [
        ...everyoneRoutes,
        ...sharedStudyRoutes,
        queryListRoute,
        ...noticeRoutes(noticeId, false),
        ...subjectRoutes(subject, EVERY_KIND_OF_FORM),
      ],
    },
    {
      role: 'PI',
      title: 'PI (PI menu): the dashboard, the subject and the signing form',
      routes: (subject) => [...roleDependentRoutes, ...subjectRoutes(subject, SOME_FORMS)],
    },
    {
      role: 'CRA',
      title: 'CRA (CRA menu): the monitor set, notice writing, forms read-only',
      routes: (subject) => [
        ...roleDependentRoutes,
        studyPage('task alarm', 'task-alarm'),
        ...craOnlyRoutes,
        sdvSubjectRoute(subject),
        ...noticeRoutes(noticeId, true),
        ...subjectRoutes(subject, SOME_FORMS),
      ],
    },
    {
      role: 'DM',
      title: 'DM (CRA menu): randomization, the pages that depend on the role, forms read-only',
      routes: (subject) => [
        ...roleDependentRoutes,
        studyPage('randomization', 'randomization'),
        sdvRoute,
        freezingRoute,
        auditRoute,
        dataRoute,
        reportRoute,
        adverseEventReportRoute,
        labRoute,
        // The data manager keeps the allocation list: the summary split by group.
        { ...summaryRoute, name: 'summary (split by group)' },
        ...subjectRoutes(subject, [['v1', 'demographicInfo']]),
      ],
    },
    {
      role: 'ADMIN',
      title: 'ADMIN: the administration pages and the pages that depend on the role',
      routes: (subject) => [
        ...roleDependentRoutes,
        ...subjectRoutes(subject, []),
        { name: 'admin users', url: '/admin/users', ready: (page) => page.locator('tbody tr') },
        { name: 'admin studies', url: '/admin/studies', ready: (page) => page.locator('tbody tr') },
        { name: 'admin sites', url: '/admin/sites', ready: (page) => page.locator('tbody tr') },
        { name: 'admin memberships', url: '/admin/memberships', ready: heading },
      ],
    },
  ];

  for (const { role, title, routes } of roles) {
    test(title, async ({ page }) => {
      await signInThroughApi(page, demoAccount(role));
      const list = routes(await aSubject(page));
      // axe takes a second or two a page on an idle machine, far more on a busy one.
      test.setTimeout(60_000 + list.length * 20_000);
      await checkRoutes(page, list);
    });
  }

  test('the folded side menu (below 1100px) and the header with version and support folded away', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1000, height: 900 });
    for (const role of ['PI', 'CRA'] as const) {
      await test.step(`${role} menu set`, async () => {
        await signInThroughApi(page, demoAccount(role));
        await page.goto(`/dashboard/${STUDY_ID}`);
        await expect(page.getByRole('button', { name: '메뉴 펼치기' })).toBeVisible();
        await expect(heading(page)).toBeVisible();
        await waitForQuietNetwork(page);
        expect.soft(await axeViolations(page), `${role} folded menu`).toEqual([]);
        await page.getByRole('banner').getByRole('button', { name: '더보기 메뉴' }).click();
        await expect(page.getByRole('dialog', { name: '더보기' })).toBeVisible();
        expect.soft(await axeViolations(page), `${role} header "more" popup`).toEqual([]);
        await page.keyboard.press('Escape');
        await page.context().clearCookies();
      });
    }
  });
});
