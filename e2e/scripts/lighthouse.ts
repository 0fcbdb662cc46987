/**
 * `npm run lighthouse` (from the repository root or e2e/): builds the web app, starts the real server
 * on a fresh data directory (as the end-to-end tests do, support/global-setup.ts), and runs
 * Lighthouse 12 with its desktop preset in Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) on
 *   - the landing page, as a visitor who has not logged in, and
 *   - the study dashboard, signed in as the demo PI (the session cookie sent with every request).
 * Prints each page's performance score (the median of `--runs` runs, default 3: one machine's
 * timings vary) with its main metrics, and the JavaScript the landing page loads in gzip bytes.
 * Exits 1 when a score is below its target or the landing's JavaScript is over budget.
 * HTML reports of the median runs go to e2e/artifacts/lighthouse/.
 *
 * Options: --no-build (use the existing apps/web/dist), --runs N.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromiumPath } from '../support/chromium-path.ts';
import { startE2eServers } from '../support/global-setup.ts';
import { gzipBytes, kilobytes, LANDING_JS_BUDGET_GZIP_BYTES } from '../support/javascript-size.ts';
import { e2eServer } from '../support/servers.ts';

/** Lighthouse performance score targets (0–1) of issue 13. */
const TARGETS = { landing: 0.95, dashboard: 0.95 } as const;
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

/** Gzip bytes of every script the page requested during the Lighthouse run (fetched again here). */
async function scriptGzipBytes(lhr: Result): Promise<{ total: number; count: number }> {
  const items = (
    lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] }
  )?.items;
  const scripts = (items ?? []).filter((item) => item.resourceType === 'Script');
  let total = 0;
  for (const script of scripts) {
    const response = await fetch(script.url);
    total += gzipBytes(new Uint8Array(await response.arrayBuffer()));
  }
  return { total, count: scripts.length };
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
    const landingJs = await scriptGzipBytes(measured[0]?.lhr as Result);

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
    const withinBudget = landingJs.total <= LANDING_JS_BUDGET_GZIP_BYTES;
    failed ||= !withinBudget;
    console.log(
      `\nlanding JavaScript: ${landingJs.count} files, ${landingJs.total} bytes gzip (${kilobytes(landingJs.total)}; budget ${kilobytes(LANDING_JS_BUDGET_GZIP_BYTES)})${withinBudget ? '' : '  ← over budget'}`,
    );
    console.log(`Reports: ${path.relative(repositoryRoot, reportDir)}/{landing,dashboard}.html`);
    return failed ? 1 : 0;
  } finally {
    chrome.kill();
    await teardown();
  }
}

process.exitCode = await main();
