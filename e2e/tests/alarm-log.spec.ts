import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// The alarm log (issue 18 item 4) over a real delivery: the CRA raises a query on a subject of site 02;
// the server's worker e-mails the site's coordinator through the SMTP server the e2e setup runs
// (global-setup.ts files each message it receives in this server's mailbox, e2eServer().mailbox); the
// CRA opens the alarm log from the menu, narrows it to the query's e-mail and sees it sent, and the
// message arrived with its Korean subject line. The page has no axe violation and downloads the
// filtered log.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;
const cra = { email: 'cra@demo.cdms', name: '최모니', role: 'CRA' } as const;

function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) of a header, decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_whole, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_h, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}

/** The messages the mail server received: recipient and decoded subject of each. */
function mailbox(): { to: string; subject: string }[] {
  const directory = e2eServer().mailbox;
  return fs.readdirSync(directory).map((file) => {
    const raw = fs.readFileSync(path.join(directory, file), 'utf8');
    const headers = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
    const header = (name: string) => headers.match(new RegExp(`^${name}: (.*)$`, 'im'))?.[1] ?? '';
    return { to: header('To'), subject: decodeHeader(header('Subject')) };
  });
}

test('a query e-mail leaves through SMTP and the CRA finds it sent in the alarm log', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The coordinator registers a subject at site 02 and saves V1 demographics (through the API).
  await logInAs(page, crc);
  const me = await (await page.request.get('/api/auth/me')).json();
  const siteId = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID).sites[0].id;
  const csrf = await csrfOf(page);
  const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { siteId, consentDate: koreanDate(3), initials: 'AL' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const subject = (await created.json()) as { id: number; subjectId: string };
  const saved = await page.request.put(
    `/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v1/demographicInfo`,
    {
      headers: { 'X-CSRF-Token': csrf },
      data: { values: { birthDate: '1988-04-02', gender: 'F' }, version: 0 },
    },
  );
  expect(saved.status(), await saved.text()).toBe(200);

  // The monitor raises a query on the birth date.
  const craContext = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
  });
  const craPage = await craContext.newPage();
  await logInAs(craPage, cra);
  const raised = await craPage.request.post(`/api/studies/${STUDY_ID}/queries`, {
    headers: { 'X-CSRF-Token': await csrfOf(craPage) },
    data: {
      subjectPk: subject.id,
      visitKey: 'v1',
      formKey: 'demographicInfo',
      itemPath: 'v1.demographicInfo.birthDate',
      text: '원자료의 생년월일과 다릅니다.',
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);

  // The coordinator's e-mail arrives at the mail server, in Korean (the coordinator's language).
  await expect
    .poll(
      () =>
        mailbox().filter((mail) => mail.to.includes(crc.email) && mail.subject.includes(subject.subjectId)),
      {
        timeout: 30_000,
      },
    )
    .toEqual([
      { to: expect.stringContaining(crc.email), subject: expect.stringMatching(/^\[CDMS\] 쿼리 발행: /) },
    ]);

  // The monitor opens the alarm log from the menu and narrows it to the coordinator's query e-mails.
  await craPage.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
  await craPage.getByRole('navigation').getByRole('link', { name: '알림 로그', exact: true }).click();
  await expect(craPage).toHaveURL(new RegExp(`/alarm-log/${STUDY_ID}`));
  await expect(craPage.getByRole('heading', { name: '알림 로그', level: 1 })).toBeVisible();
  await craPage.getByLabel('이벤트').selectOption({ label: '쿼리 발행' });
  await craPage.getByLabel('수신자').fill(crc.name);
  await craPage.getByRole('button', { name: '검색', exact: true }).click();
  await expect(craPage).toHaveURL(/eventType=query_opened/);
  const row = craPage.locator('tbody tr').filter({ hasText: subject.subjectId });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(crc.email);
  await expect(row).toContainText('이메일');
  await expect(row.locator('[data-status]')).toHaveText('발송');
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  expect(await axeViolations(craPage)).toEqual([]);

  // The filtered log downloads as a file.
  const download = craPage.waitForEvent('download');
  await craPage.getByRole('button', { name: 'CSV 다운로드' }).click();
  const file = await download;
  const text = fs.readFileSync((await file.path()) as string, 'utf8');
  expect(text).toContain(subject.subjectId);
  expect(text).toContain(crc.email);
  await craContext.close();
});
