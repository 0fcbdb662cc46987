/**
 * `npm run lighthouse` (from the repository root or e2e/): builds the web app, starts the real server
 * on a fresh data directory (as the end-to-end tests do, support/global-setup.ts), and runs
 * Lighthouse 12 with its desktop preset in Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) on
 *   - the landing page, as a visitor who has not logged in, and
 *   - the study dashboard, signed in as the demo PI (the session cookie sent with every request).
 * Prints each page's performance score (the median of `--runs` runs, default 3: one machine's
 * timings vary) with its main metrics, and the JavaScript each page loads in gzip bytes with its
 * largest files (measured as tests/first-load.spec.ts does: the dashboard's until it is usable, and
 * the charts it loads afterwards). Exits 1 when a score or a page's JavaScript misses its target
 * (support/javascript-size.ts).
 * HTML reports of the median runs go to e2e/artifacts/lighthouse/.
 *
 * Options: --no-build (use the existing apps/web/dist), --runs N.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromiumPath, testBrowserPath } from '../support/chromium-path.ts';
import { startE2eServers } from '../support/global-setup.ts';
import {
  DASHBOARD_JS_TARGET_GZIP_BYTES,
  kilobytes,
  LANDING_JS_BUDGET_GZIP_BYTES,
  type ScriptSize,
  type ScriptsAroundHeading,
  scriptsAroundFirstHeading,
  totalBytes,
} from '../support/javascript-size.ts';
import { e2eServer } from '../support/servers.ts';

/** Lighthouse performance score targets (0–1) of issue 13. */
const TARGETS = { landing: 0.95, dashboard: 0.95 } as const;
/**
 * The most JavaScript (gzip bytes) each page should load: issue 13 (landing), issue 43 item 12
 * (dashboard, until usable). The e2e tests hold the landing's and a ceiling for the dashboard.
 */
const JS_TARGETS = {
  landing: LANDING_JS_BUDGET_GZIP_BYTES,
  dashboard: DASHBOARD_JS_TARGET_GZIP_BYTES,
} as const;
const SIGNED_IN = { email: 'pi@demo.cdms', password: 'cdms-demo-2026' };

const repositoryRoot = path.resolve(import.meta.dirname, '../..');
const reportDir = path.join(repositoryRoot, 'e2e/artifacts/lighthouse');

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;

interface Measured {
  name: keyof typeof TARGETS;
  score: number;
  lhr: Result;
  report: string;
}

/** Logs in through the API: the session cookie and the first study of the account. */
async function signIn(baseUrl: string): Promise<{ cookie: string; studyId: number }> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SIGNED_IN),
  });
  if (!response.ok)
    throw new Error(`login as ${SIGNED_IN.email}: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('cdms_session='));
  const body = (await response.json()) as { memberships: { studyId: number }[] };
  const studyId = body.memberships[0]?.studyId;
  if (!cookie || studyId === undefined) throw new Error('login answered no session cookie or no study');
  return { cookie: cookie.split(';')[0] as string, studyId };
}

async function measure(
  name: Measured['name'],
  url: string,
  port: number,
  extraHeaders?: Record<string, string>,
): Promise<Measured> {
  const results: Measured[] = [];
  for (let run = 1; run <= runs; run++) {
    const flags: Flags = {
      port,
      output: 'html',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(extraHeaders ? { extraHeaders } : {}),
    };
    const result = await lighthouse(url, flags, desktopConfig);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const score = result.lhr.categories.performance?.score ?? 0;
    console.log(`  ${name} run ${run}/${runs}: ${Math.round(score * 100)}`);
    results.push({ name, score, lhr: result.lhr, report: String(result.report) });
  }
  results.sort((a, b) => a.score - b.score);
  return results[Math.floor(results.length / 2)] as Measured;
}

function metric(lhr: Result, audit: string): string {
  return lhr.audits[audit]?.displayValue ?? '?';
}

/**
 * The JavaScript of each page, measured apart from Lighthouse in the e2e tests' browser and as they
 * measure it (support/javascript-size.ts, tests/first-load.spec.ts): the landing page's every script
 * until the network is quiet; the dashboard's scripts until it is usable (its first heading), and
 * those it loads afterwards (the charts).
 */
async function measureJavaScript(
  baseUrl: string,
  studyId: number,
): Promise<Record<Measured['name'], ScriptsAroundHeading>> {
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: ['--no-sandbox'] });
  try {
    const measurePage = async (url: string, signedIn: boolean) => {
      const context = await browser.newContext({ baseURL: baseUrl, locale: 'ko-KR' });
      const page = await context.newPage();
      if (signedIn) {
        const login = await page.request.post('/api/auth/login', { data: SIGNED_IN });
        if (!login.ok()) throw new Error(`login as ${SIGNED_IN.email}: ${login.status()}`);
      }
      const scripts = await scriptsAroundFirstHeading(page, url, () => page.waitForLoadState('networkidle'));
      await context.close();
      return scripts;
    };
    return {
      landing: await measurePage('/', false),
      dashboard: await measurePage(`/dashboard/${studyId}?type=PI`, true),
    };
  } finally {
    await browser.close();
  }
}

/** "12 files, 123456 bytes gzip (123.5 kB)", and the largest files: where to look when it grows. */
function describeScripts(scripts: readonly ScriptSize[]): string {
  const largest = [...scripts]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 4)
    .map((script) => `${path.basename(new URL(script.url).pathname)} ${kilobytes(script.bytes)}`);
  const total = totalBytes(scripts);
  return `${scripts.length} files, ${total} bytes gzip (${kilobytes(total)}); largest ${largest.join(', ')}`;
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
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const { cookie, studyId } = await signIn(baseUrl);
    console.log(`Lighthouse ${runs}× per page (desktop preset) against ${baseUrl}`);
    const measured = [
      await measure('landing', `${baseUrl}/`, chrome.port),
      await measure('dashboard', `${baseUrl}/dashboard/${studyId}?type=PI`, chrome.port, { Cookie: cookie }),
    ];

    fs.mkdirSync(reportDir, { recursive: true });
    let failed = false;
    console.log('\npage       score  target  FCP     LCP     TBT     CLS     SI');
    for (const { name, score, lhr, report } of measured) {
      fs.writeFileSync(path.join(reportDir, `${name}.html`), report);
      const met = score >= TARGETS[name];
      failed ||= !met;
      console.log(
        [
          name.padEnd(10),
          String(Math.round(score * 100)).padStart(5),
          `≥ ${Math.round(TARGETS[name] * 100)}`.padStart(7),
          ...['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time'].map((audit) =>
            metric(lhr, audit).padStart(7),
          ),
          metric(lhr, 'cumulative-layout-shift').padStart(7),
          metric(lhr, 'speed-index').padStart(7),
          met ? '' : '  ← below target',
        ].join(' '),
      );
    }

    const javaScript = await measureJavaScript(baseUrl, studyId);
    const landing = [...javaScript.landing.untilUsable, ...javaScript.landing.afterwards];
    const dashboard = javaScript.dashboard.untilUsable;
    for (const [name, scripts, label] of [
      ['landing', landing, 'every script'],
      ['dashboard', dashboard, 'until usable'],
    ] as const) {
      const withinTarget = totalBytes(scripts) <= JS_TARGETS[name];
      failed ||= !withinTarget;
      console.log(
        `\n${name} JavaScript, ${label} (target ≤ ${kilobytes(JS_TARGETS[name])}${withinTarget ? '' : ', ← over target'}): ${describeScripts(scripts)}`,
      );
    }
    console.log(
      `dashboard JavaScript afterwards (charts): ${describeScripts(javaScript.dashboard.afterwards)}`,
    );
    // What to write beside the figures (docs/PERFORMANCE.md): the tool and browser that produced them.
    const first = measured[0]?.lhr as Result;
    console.log(`Lighthouse ${first.lighthouseVersion}, ${first.environment.hostUserAgent}`);
    console.log(`Reports: ${path.relative(repositoryRoot, reportDir)}/{landing,dashboard}.html`);
    return failed ? 1 : 0;
  } finally {
    chrome.kill();
    await teardown();
  }
}

process.exitCode = await main();
