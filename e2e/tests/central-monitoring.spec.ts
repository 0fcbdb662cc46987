import type { Page, TestInfo } from '@playwright/test';
import { logInAs, signInThroughApi } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { layoutProblems } from '../support/layout.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// Central monitoring (issue 50): a CRA opens the dashboard, sees the monitoring panel, opens the
// monitoring page and one of the living demo's signals at a site the CRA shares with a site user, and
// raises queries from it (one per item and subject it names); the site user finds the query in the
// query list and answers it. The page is checked for layout and accessibility in ko and en at 1440 and
// 1000 px, with screenshots attached to the report.
//
// The signal is chosen through the API, not by its words: the living demo's data decide which signals
// the seed's run finds, and any open signal naming a subject at a visit will do.

const STUDY_ID = 1;
const cra = { email: 'cra@demo.cdms', name: '최모니', role: 'CRA' } as const;
/** The site users who may answer, each with the sites they hold (read from `me`). */
const siteUsers = [
  { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' },
  { email: 'pi@demo.cdms', name: '김연구', role: 'PI' },
] as const;

interface SignalRow {
  id: number;
  kind: string;
  site: { id: number; code: string };
  title: { ko: string; en: string };
  items: { visitKey: string | null; formKey: string; itemKey: string; label: { ko: string; en: string } }[];
  subjects: { subjectId: number; screeningNumber: string }[];
  state: string;
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** The sites a user holds in the study, as `me` lists them. */
async function sitesOf(page: Page): Promise<number[]> {
  const me = await (await page.request.get('/api/auth/me')).json();
  const membership = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID);
  return (membership?.sites ?? []).map((site: { id: number }) => site.id);
}

test.describe('central monitoring', () => {
  test('a CRA raises queries from a signal; the site answers one', async ({ page, browser }, testInfo) => {
    test.setTimeout(240_000);
    await logInAs(page, cra);

    // An open signal naming items and subjects (each query on an item at the visit the signal found,
    // not on a whole form), at a site one of the site users holds: in the living demo, site 02's
    // rounded blood pressures.
    const listed = await page.request.get(`/api/studies/${STUDY_ID}/monitoring/signals?state=open&size=50`);
    expect(listed.status(), await listed.text()).toBe(200);
    const signals = ((await listed.json()) as { items: SignalRow[] }).items.filter(
      (signal) =>
        signal.subjects.length > 0 &&
        signal.items.length > 0 &&
        signal.items.every((item) => item.itemKey !== ''),
    );
    const siteContext = await browser.newContext({
      baseURL: e2eServer().baseUrl,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    const sitePage = await siteContext.newPage();
    let chosen: { signal: SignalRow; user: (typeof siteUsers)[number] } | null = null;
    for (const user of siteUsers) {
      await signInThroughApi(sitePage, user);
      const sites = await sitesOf(sitePage);
      const signal = signals.find((candidate) => sites.includes(candidate.site.id));
      if (signal) {
        chosen = { signal, user };
        break;
      }
      await sitePage.request.post('/api/auth/logout', { failOnStatusCode: false });
    }
    expect(chosen, 'the living demo has an open signal at a site user’s site').not.toBeNull();
    if (!chosen) return;
    const { signal, user } = chosen;
    const queryCount = signal.items.length * signal.subjects.length;

    // The dashboard's monitoring panel: its heading, the run, a link to the page.
    await page.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
    const panel = page.getByTestId('monitoring-panel');
    await expect(panel.getByRole('heading', { name: '중앙 모니터링' })).toBeVisible();
    await expect(panel.getByText(/계산$/)).toBeVisible();
    await expect(panel.getByRole('listitem').first()).toBeVisible();
    await panel.getByRole('link', { name: '중앙 모니터링 페이지 열기' }).click();
    await expect(page).toHaveURL(new RegExp(`/monitoring/${STUDY_ID}\\?menu-type=CRA$`));
    await expect(page.getByRole('heading', { level: 1, name: '중앙 모니터링' })).toBeVisible();
    await expect(page.getByRole('table', { name: /기관별 핵심 위험 지표/ })).toBeVisible();

    // The signal list narrowed to the signal's site and kind (in the URL), then the signal opened.
    await page.getByLabel('기관', { exact: true }).selectOption(String(signal.site.id));
    await page.getByLabel('종류', { exact: true }).selectOption(signal.kind);
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`site=${signal.site.id}.*kind=${signal.kind}`));
    const row = page.locator(`tr[data-signal-id="${signal.id}"]`);
    await row.getByRole('button', { name: signal.title.ko }).click();
    const detail = page.getByRole('dialog', { name: signal.title.ko });
    await expect(detail.getByRole('heading', { name: '찾은 방법' })).toBeVisible();
    await expect(detail.getByRole('heading', { name: '근거 수치' })).toBeVisible();
    for (const subject of signal.subjects)
      await expect(detail.getByRole('link', { name: subject.screeningNumber, exact: true })).toBeVisible();

    // Raising queries: one text, the count said before it is sent.
    await detail.getByRole('button', { name: '쿼리 발행' }).click();
    const raise = page.getByRole('dialog', { name: '신호에서 쿼리 발행' });
    await expect(raise).toContainText(`쿼리 ${queryCount}건을 발행합니다`);
    const question = '중앙 모니터링에서 확인된 값입니다. 원자료와 대조해 주세요.';
    await raise.getByLabel('쿼리 내용').fill(question);
    await raise.getByRole('button', { name: '쿼리 발행' }).click();
    await expect(page.getByText(`쿼리 ${queryCount}건을 발행했습니다.`).first()).toBeVisible();
    await expect(raise).toBeHidden();
    await expect(detail.getByText('쿼리 발행', { exact: true }).first()).toBeVisible();
    await expect(detail).toContainText(`쿼리 ${queryCount}건 발행`);

    // The page as the CRA sees it, in both languages and widths (the detail closed).
    await detail.getByRole('button', { name: '닫기' }).click();
    for (const language of ['ko', 'en'] as const) {
      if (language === 'en') await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      for (const width of [1440, 1000] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/monitoring/${STUDY_ID}?menu-type=CRA`);
        await expect(page.locator('tr[data-signal-id]').first()).toBeVisible();
        await waitForQuietNetwork(page);
        await expect
          .poll(() => layoutProblems(page), { message: `monitoring page ${language} ${width}px` })
          .toEqual([]);
        await screenshot(page, testInfo, `monitoring-${language}-${width}`);
        if (language === 'ko' && width === 1440)
          expect.soft(await axeViolations(page), 'monitoring page').toEqual([]);
      }
    }
    await page.getByRole('button', { name: 'KO', exact: true }).first().click();

    // The site user finds the query in the query list and answers it.
    const subject = signal.subjects[0]?.screeningNumber ?? '';
    await sitePage.goto(`/query/${STUDY_ID}?state=open&subject=${subject}`);
    await expect(sitePage.getByRole('heading', { level: 1, name: '쿼리 목록' })).toBeVisible();
    const itemLabel = signal.items[0]?.label.ko ?? '';
    const queryRow = sitePage
      .getByRole('row')
      .filter({ hasText: subject })
      .filter({ hasText: itemLabel })
      .first();
    await expect(queryRow).toBeVisible();
    await queryRow.getByRole('button', { name: /스레드 열기/ }).click();
    const thread = sitePage.getByRole('dialog', { name: '쿼리', exact: true });
    await expect(thread).toContainText(question);
    await thread.getByLabel('메시지', { exact: true }).fill('원자료와 대조했습니다. 입력값이 맞습니다.');
    await thread.getByRole('button', { name: '답변', exact: true }).click();
    await expect(sitePage.getByText('답변을 등록했습니다.').first()).toBeVisible();
    await expect(thread).toContainText('답변됨');
    await expect(thread).toContainText(`${user.name} (${user.role})`);
    await siteContext.close();
  });
});
