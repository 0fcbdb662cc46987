import { spawnSync } from 'node:child_process';
import { logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// The casebook PDF (issue 16 item 4) as an investigator meets it: the PI opens a subject's form,
// clicks the toolbar's PDF button, and the download is the subject's casebook — a PDF whose text
// (read with poppler's pdftotext) names the subject's screening number and the Korean form label.

const STUDY_ID = 1;
const pi = { email: 'pi@demo.cdms', name: '김연구' } as const;

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

test.describe('Casebook PDF', () => {
  test('the PI downloads the casebook of the subject on screen', async ({ page }, testInfo) => {
    await logInAs(page, pi);
    const me = await (await page.request.get('/api/auth/me')).json();
    const membership = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID);
    const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
      headers: { 'X-CSRF-Token': me.csrfToken },
      data: { siteId: membership.sites[0].id, consentDate: koreanDate(4), initials: 'PDF' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const subject = (await created.json()) as { id: number; subjectId: string };
    const query = `subject-id=${subject.subjectId}&subject-pk=${subject.id}`;
    await page.goto(
      `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v1&depth-2=demographicInfo`,
    );
    const form = page.locator('[data-form="demographicInfo"]');
    await form.getByLabel(/생년월일/).fill('1990-05-15');
    await form.getByRole('radiogroup', { name: /성별/ }).getByRole('radio', { name: '여' }).check();
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();

    // The toolbar with the PDF link drawn as a button, in both languages and widths (for the report).
    for (const language of ['ko', 'en'] as const) {
      if (language === 'en') await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      for (const width of [1440, 1000]) {
        await page.setViewportSize({ width, height: 900 });
        const body = await page.screenshot({
          path: testInfo.outputPath(`form-toolbar-${language}-${width}.png`),
        });
        await testInfo.attach(`form-toolbar-${language}-${width}`, { body, contentType: 'image/png' });
      }
    }
    await page.getByRole('button', { name: 'KO', exact: true }).first().click();
    await page.setViewportSize({ width: 1440, height: 900 });

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'PDF', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^casebook-.+\.pdf$/);
    const file = testInfo.outputPath('casebook.pdf');
    await download.saveAs(file);

    const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(subject.subjectId);
    expect(text.stdout).toContain('인구학적 정보');
    expect(text.stdout).toContain('증례기록서');
    expect(text.stdout).toContain('서명되지 않음');
    expect(text.stdout).toMatch(/1 \/ \d+ 페이지/);
  });
});
