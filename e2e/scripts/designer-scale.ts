/**
 * `npm run designer-scale` (from the repository root or e2e/), issue 48 item 8: the study designer
 * with a large design — the bench's 3,000 items in 60 forms (bench/src/definition-install.ts
 * `largeDefinition`) — in the e2e tests' Chromium against the real server on a fresh data directory
 * (support/global-setup.ts). Measures, `--runs` times (default 5), with the page's own clock:
 *   - open: from the navigation to /design/:studyId until the schedule shows its 60th form (target
 *     under 2 s);
 *   - typing: from each keystroke in an item's Korean label (the event's timestamp) until the live
 *     preview beside it shows the new label (target under 100 ms), 10 keystrokes a run.
 *   - autosave: after the typing, the draft's save (PUT …/design-draft with the whole 3,000-item
 *     draft, the server describing what changed) from request to response (no target: reported).
 * Prints the median and worst of each and exits 1 when a median misses its target.
 *
 * Options: --no-build (use the existing apps/web/dist), --runs N.
 */
import { spawnSync } from 'node:child_process';
import { chromium, type Page } from '@playwright/test';
import { largeDefinition } from '../../bench/src/definition-install.ts';
import { testBrowserPath } from '../support/chromium-path.ts';
import { repositoryRoot, startE2eServers } from '../support/global-setup.ts';
import { e2eServer } from '../support/servers.ts';

const TARGETS = { openMs: 2000, keystrokeMs: 100 } as const;
const KEYSTROKES = 10;
const ADMIN = { email: 'admin@demo.cdms', password: 'cdms-demo-2026' };

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A study in design holding the large definition; its id. */
async function createLargeStudy(page: Page): Promise<number> {
  const { csrfToken } = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const headers = { 'x-csrf-token': csrfToken };
  const created = await page.request.post('/api/admin/studies', {
    headers,
    data: {
      code: `BIG-${Date.now().toString(36)}`,
      protocolNumber: '',
      titleKo: '대형 설계',
      titleEn: 'Large design',
      sponsor: '',
      kind: 'observational',
      content: '',
    },
  });
  if (created.status() !== 201)
    throw new Error(`creating the study: ${created.status()} ${await created.text()}`);
  const studyId = ((await created.json()) as { id: number }).id;
  const saved = await page.request.put(`/api/studies/${studyId}/definition`, {
    headers,
    data: largeDefinition(),
  });
  if (saved.status() !== 200) throw new Error(`saving the design: ${saved.status()} ${await saved.text()}`);
  return studyId;
}

/** Milliseconds from the navigation's start until the schedule's 60th form row is in the page. */
async function measureOpen(page: Page, studyId: number): Promise<number> {
  await page.goto(`/design/${studyId}`);
  const handle = await page.waitForFunction(
    () => {
      const rows = document.querySelectorAll('table tbody tr');
      return rows.length >= 60 && document.body.textContent?.includes('양식 60') ? performance.now() : false;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * Each keystroke's time until the preview shows the label it made: the keydown's timestamp, and the
 * frame in which a MutationObserver on the preview first finds the new text.
 */
async function measureTyping(page: Page): Promise<number[]> {
  await page.getByRole('button', { name: '양식 1 항목 편집' }).click();
  await page.getByRole('button', { name: /^항목 1[A-Z]*\s*item1/ }).click();
  const label = page.getByRole('region', { name: 'item1 속성' }).getByLabel('이름 (한국어)');
  await label.click();
  await label.press('End');
  const times: number[] = [];
  let text = await label.inputValue();
  for (let stroke = 0; stroke < KEYSTROKES; stroke += 1) {
    const letter = String.fromCharCode(65 + stroke);
    text += letter;
    await page.evaluate((expected) => {
      const state = window as unknown as { designerKeyAt?: number; designerShownAt?: Promise<number> };
      const preview = document.querySelector('section[aria-label="미리 보기"]');
      document.addEventListener('keydown', (event) => (state.designerKeyAt = event.timeStamp), {
        once: true,
        capture: true,
      });
      state.designerShownAt = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (preview?.textContent?.includes(expected)) {
            observer.disconnect();
            resolve(performance.now());
          }
        });
        if (preview) observer.observe(preview, { subtree: true, childList: true, characterData: true });
      });
    }, text);
    await page.keyboard.press(letter);
    times.push(
      await page.evaluate(async () => {
        const state = window as unknown as { designerKeyAt?: number; designerShownAt?: Promise<number> };
        const shown = await state.designerShownAt;
        return (shown ?? 0) - (state.designerKeyAt ?? 0);
      }),
    );
  }
  return times;
}

/** The autosave the typing started: its PUT's milliseconds from request to the end of the response. */
async function measureAutosave(page: Page): Promise<number> {
  const response = await page.waitForResponse(
    (candidate) => candidate.url().endsWith('/design-draft') && candidate.request().method() === 'PUT',
    { timeout: 30_000 },
  );
  if (!response.ok()) throw new Error(`the autosave: ${response.status()} ${await response.text()}`);
  await response.finished();
  const timing = response.request().timing();
  await page.getByText(/초안 저장됨 · 개정/).waitFor();
  return timing.responseEnd;
}

async function main(): Promise<number> {
  if (!args.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@cdms/web'], {
      cwd: repositoryRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) return 1;
  }
  console.log('Starting the server on a fresh data directory…');
  const teardown = await startE2eServers(1);
  const { baseUrl } = e2eServer(0);
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({
      baseURL: baseUrl,
      locale: 'ko-KR',
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    const login = await page.request.post('/api/auth/login', { data: ADMIN });
    if (!login.ok()) throw new Error(`login as ${ADMIN.email}: ${login.status()}`);
    const studyId = await createLargeStudy(page);
    const opens: number[] = [];
    const strokes: number[] = [];
    const saves: number[] = [];
    for (let run = 1; run <= runs; run += 1) {
      opens.push(await measureOpen(page, studyId));
      strokes.push(...(await measureTyping(page)));
      saves.push(await measureAutosave(page));
      console.log(
        `  run ${run}/${runs}: open ${opens.at(-1)?.toFixed(0)} ms, keystroke → preview ${strokes
          .slice(-KEYSTROKES)
          .map((ms) => ms.toFixed(0))
          .join(', ')} ms, autosave ${saves.at(-1)?.toFixed(0)} ms`,
      );
    }
    const open = { median: median(opens), worst: Math.max(...opens) };
    const stroke = { median: median(strokes), worst: Math.max(...strokes) };
    console.log(
      `Designer with 3,000 items in 60 forms: open median ${open.median.toFixed(0)} ms, worst ${open.worst.toFixed(0)} ms (target under ${TARGETS.openMs} ms); keystroke → preview median ${stroke.median.toFixed(0)} ms, worst ${stroke.worst.toFixed(0)} ms over ${strokes.length} keystrokes (target under ${TARGETS.keystrokeMs} ms); autosave of the whole draft median ${median(saves).toFixed(0)} ms, worst ${Math.max(...saves).toFixed(0)} ms`,
    );
    return open.median < TARGETS.openMs && stroke.median < TARGETS.keystrokeMs ? 0 : 1;
  } finally {
    await browser.close();
    await teardown();
  }
}

process.exitCode = await main();
