import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyPostgresTemplate, dropPostgresDatabase } from './database-templates.ts';
import { type ServerProcess, signInOverHttp, startServerProcess } from './server-process.ts';

/**
 * Issue 52 item 3: three server processes on one PostgreSQL database behind a real load balancer
 * (HAProxy from Debian's packages, round robin), as an install that scales out runs them.
 * - one session cookie and CSRF token work whichever process answers;
 * - background jobs (exports, notifications) run once across the processes;
 * - login rate limits and lockouts hold on every process;
 * - a process killed with SIGKILL during a burst of saves loses no save that was answered 2xx;
 * - saves per second through one process and through three, printed (docs/PERFORMANCE.md).
 * Runs when TEST_DATABASE_URL is set and HAProxy is installed (CI installs it: .ci/run).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
// On PATH, or where Debian's package puts it (/usr/sbin, not on every user's PATH).
const haproxy = ['haproxy', '/usr/sbin/haproxy'].find(
  (command) => spawnSync(command, ['-v'], { stdio: 'ignore' }).status === 0,
);
if (adminUrl && !haproxy)
  console.warn(
    'three-processes-behind-haproxy: skipped, `haproxy` is not installed (apt-get install haproxy)',
  );

/** Saving users (one form each); fewer when the living demo has fewer savable vital signs. */
const WRITERS = 12;
/** Each timed burst of saves. */
const BURST_MS = 4_000;

const STAFF_BY_SITE: Record<string, string> = {
  '01': 'si@demo.cdms',
  '02': 'crc@demo.cdms',
  '03': 'crc3@demo.cdms',
};

type Headers = Record<string, string>;

interface Writer {
  subjectId: number;
  path: string;
  headers: Headers;
  /** The form as the last answer gave it. */
  version: number;
  entered: Record<string, unknown>;
  /** Saves answered 2xx, and the highest version one of them reported. */
  acknowledged: number;
  highestAcknowledgedVersion: number;
}

interface FormState {
  values: Record<string, unknown>;
  derived: Record<string, unknown>;
  version: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A foreground HAProxy (`-db`) in front of `servers`, round robin, each server checked on its
 * readiness probe every 300 ms and taken out after two failed checks. A refused connection (a
 * killed process) is retried on another server (`retries`, `option redispatch`); a request the
 * killed process had already taken fails, as it would in production.
 */
async function startHaproxy(
  directory: string,
  name: string,
  servers: readonly string[],
): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 1000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  option redispatch 1',
    'frontend cdms',
    `  bind 127.0.0.1:${port}`,
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    '  option httpchk GET /health/ready',
    // The client's address for the server's login throttling (TRUST_PROXY below).
    '  option forwardfor',
    '  default-server check inter 300ms fall 2 rise 2',
    ...servers.map((url, index) => `  server s${index + 1} ${new URL(url).host}`),
    '',
  ].join('\n');
  const file = path.join(directory, `${name}.cfg`);
  fs.writeFileSync(file, config);
  const child = spawn(haproxy ?? 'haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-5_000);
  });
  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers through to a server.
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const answered = await fetch(`${url}/health/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (answered) break;
    if (tries > 100) throw new Error(`haproxy did not answer: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, process: child };
}

/** One counter of a process's /metrics (the sum over its labels matching `labels`). */
async function metric(server: ServerProcess, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const [series, value] = line.split(' ');
    const rest = series?.slice(name.length) ?? '';
    if (rest !== '' && !rest.startsWith('{')) continue;
    if (labels && !rest.includes(labels)) continue;
    total += Number(value);
  }
  return total;
}

async function readForm(base: string, writer: Writer): Promise<void> {
  const response = await fetch(`${base}${writer.path}`, { headers: { cookie: writer.headers.cookie ?? '' } });
  if (response.status !== 200) throw new Error(`reading ${writer.path}: ${response.status}`);
  const state = (await response.json()) as FormState;
  writer.version = state.version;
  writer.entered = Object.fromEntries(
    Object.entries(state.values).filter(([key]) => !(key in state.derived)),
  );
}

/** One save of the writer's form, the heart rate moved by one (a change, so with its reason). */
async function saveOnce(base: string, writer: Writer): Promise<boolean> {
  const heartRate = Number(writer.entered.heartRate ?? 70);
  const body = JSON.stringify({
    values: { ...writer.entered, heartRate: heartRate % 2 === 0 ? heartRate + 1 : heartRate - 1 },
    version: writer.version,
    reasons: { heartRate: '부하 분산 시험: 원자료 재확인 후 정정 (load-balancer test)' },
  });
  const response = await fetch(`${base}${writer.path}`, {
    method: 'PUT',
    headers: writer.headers,
    body,
  }).catch(() => undefined);
  if (response?.status === 200) {
    const state = (await response.json()) as FormState;
    writer.version = state.version;
    writer.entered = Object.fromEntries(
      Object.entries(state.values).filter(([key]) => !(key in state.derived)),
    );
    writer.acknowledged += 1;
    writer.highestAcknowledgedVersion = Math.max(writer.highestAcknowledgedVersion, state.version);
    return true;
  }
  await response?.body?.cancel();
  // No answer, a 502 from the load balancer or a version conflict (the save reached a process that
  // died after committing it): read the form again, retrying while the balancer notices the death.
  for (let tries = 0; tries < 50; tries++) {
    try {
      await readForm(base, writer);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}

/** Every writer saves back to back through `base` for `ms`; returns the 2xx saves per second. */
async function burst(base: string, writers: readonly Writer[], ms: number) {
  const started = performance.now();
  const ends = started + ms;
  let saved = 0;
  let failed = 0;
  await Promise.all(
    writers.map(async (writer) => {
      while (performance.now() < ends) {
        if (await saveOnce(base, writer)) saved += 1;
        else failed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { saved, failed, seconds, perSecond: saved / seconds };
}

describe.skipIf(!adminUrl || !haproxy)('three server processes behind HAProxy on one PostgreSQL', () => {
  const postgres = inject('testDatabaseSources').postgres;
  // Named with the run's prefix: the run's teardown drops it even if this file dies.
  const databaseName = `${postgres?.prefix}_lb_${process.pid}`;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-haproxy-'));
  const servers: ServerProcess[] = [];
  /** Each process's output since it started (LOG_LEVEL warn: the notification senders' lines). */
  const outputs: string[] = [];
  const balancers: ChildProcess[] = [];
  let balanced = '';
  let toFirstOnly = '';
  let databaseUrl = '';
  let check: pg.Client;
  const writers: Writer[] = [];
  let studyId = 0;
  /** When every process had started (this process's clock). */
  let serversUpAt = 0;
  /** The database's clock before the processes started. */
  let startedAt: Date;

  beforeAll(async () => {
    if (!postgres) throw new Error('TEST_DATABASE_URL is set but the global setup made no templates.');
    databaseUrl = await copyPostgresTemplate(postgres, 'living-demo', databaseName);
    check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    startedAt = (await check.query<{ now: Date }>('select now()')).rows[0]?.now as Date;
    const started = await Promise.all(
      [0, 1, 2].map((index) => {
        outputs.push('');
        return startServerProcess(
          {
            DATABASE_URL: databaseUrl,
            CDMS_DEMO: '1',
            // The login limits as shipped, per client address; a day's window, so the test does not
            // straddle a window's end. TRUST_PROXY 2: HAProxy and the test itself, which names the
            // client address in X-Forwarded-For to act as several clients.
            LOGIN_RATE_LIMIT: '30',
            LOGIN_RATE_WINDOW_SECONDS: '86400',
            TRUST_PROXY: '2',
          },
          150_000,
          [],
          (text) => {
            outputs[index] += text;
          },
        );
      }),
    );
    servers.push(...started);
    serversUpAt = performance.now();
    const three = await startHaproxy(
      directory,
      'three',
      servers.map((server) => server.url),
    );
    const one = await startHaproxy(directory, 'one', [servers[0]?.url ?? '']);
    balancers.push(three.process, one.process);
    balanced = three.url;
    toFirstOnly = one.url;
  }, 300_000);

  afterAll(async () => {
    for (const balancer of balancers) balancer.kill('SIGKILL');
    await Promise.all(
      servers.map(({ process: server, exited }) => {
        if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
        return exited;
      }),
    );
    await check?.end();
    if (postgres) await dropPostgresDatabase(postgres.url, databaseName);
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('takes one session cookie and CSRF token on every process, saves landing on all three', async () => {
    const sessions = new Map<string, Headers>();
    for (const email of Object.values(STAFF_BY_SITE))
      sessions.set(email, await signInOverHttp(balanced, email));
    // Vital signs at the first visit already saved, one per subject, in the living demo.
    const candidates = await check.query<{ subject_id: number; study_id: number; site_code: string }>(
      `select s.id as subject_id, s.study_id, st.institution_number as site_code
       from subjects s join sites st on st.id = s.site_id
       join form_instances f on f.subject_id = s.id and f.visit_key = 'v1' and f.form_key = 'vitalSigns'
       where s.deleted_at is null and f.has_data order by s.id`,
    );
    const savesBefore = await Promise.all(servers.map((server) => metric(server, 'cdms_form_saves_total')));
    for (const row of candidates.rows) {
      const headers = sessions.get(STAFF_BY_SITE[row.site_code] ?? '');
      if (!headers || writers.length >= WRITERS) continue;
      const writer: Writer = {
        subjectId: row.subject_id,
        path: `/api/studies/${row.study_id}/subjects/${row.subject_id}/forms/v1/vitalSigns`,
        headers,
        version: 0,
        entered: {},
        acknowledged: 0,
        highestAcknowledgedVersion: 0,
      };
      await readForm(balanced, writer);
      // A subject whose form may not be changed (a hold, a locked casebook) saves no writer's data.
      if (await saveOnce(balanced, writer)) {
        writers.push(writer);
        studyId = row.study_id;
      }
    }
    expect(writers.length).toBeGreaterThanOrEqual(6);
    // Round robin: each process answered saves, so each took the cookie and the CSRF token.
    for (const writer of writers)
      for (let i = 0; i < 2; i++) expect(await saveOnce(balanced, writer)).toBe(true);
    const savesAfter = await Promise.all(servers.map((server) => metric(server, 'cdms_form_saves_total')));
    const perProcess = savesAfter.map((after, index) => after - (savesBefore[index] ?? 0));
    for (const saves of perProcess) expect(saves).toBeGreaterThan(0);
    expect(perProcess.reduce((sum, saves) => sum + saves, 0)).toBe(
      writers.reduce((sum, writer) => sum + writer.acknowledged, 0),
    );
  }, 60_000);

  it('runs each export once and sends each notification once across the processes', async () => {
    const dm = await signInOverHttp(balanced, 'dm@demo.cdms');
    const { 'content-type': _json, ...dmWithoutBody } = dm;
    // The living demo's own export, if it is still queued, runs first.
    const unfinished = async () =>
      Number(
        (await check.query(`select count(*) as n from data_exports where state in ('queued', 'running')`))
          .rows[0]?.n,
      );
    for (let tries = 0; (await unfinished()) > 0; tries++) {
      if (tries > 100) throw new Error('the demo export did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const exportRuns = () =>
      Promise.all(
        servers.map((server) => metric(server, 'cdms_background_job_duration_seconds_count', 'export')),
      );
    const runsBefore = await exportRuns();
    // Three requests, round robin: each lands on a process that kicks its own runner at once.
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${balanced}/api/studies/${studyId}/data-exports`, {
        method: 'POST',
        headers: dm,
        body: JSON.stringify({ format: 'tables-csv', scope: {}, auditTrail: false }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      ids.push(((await response.json()) as { id: number }).id);
    }
    for (const id of ids) {
      for (let tries = 0; ; tries++) {
        const read = (await (
          await fetch(`${balanced}/api/studies/${studyId}/data-exports/${id}`, { headers: dmWithoutBody })
        ).json()) as { state: string };
        if (read.state === 'done') break;
        expect(['queued', 'running']).toContain(read.state);
        if (tries > 150) throw new Error(`export ${id} did not finish`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const runsAfter = await exportRuns();
    const runs = runsAfter.map((after, index) => after - (runsBefore[index] ?? 0));
    // Exactly three runs in all: no export was run by two processes.
    expect(runs.reduce((sum, count) => sum + count, 0)).toBe(3);

    // Notifications: the living demo's queued messages and the overdue-visit reminders each process
    // raises 5 s after its start (one per day, site and recipient, whichever process writes it first).
    // Each message is claimed once (attempts 1), and the processes' logs (no SMTP or SMS gateway:
    // each send is a log line) hold one line per message sent since the processes started.
    const reminderDue = serversUpAt + 7_000 - performance.now();
    if (reminderDue > 0) await new Promise((resolve) => setTimeout(resolve, reminderDue));
    const sendLines = () =>
      outputs
        .map(
          (output) =>
            output.split('e-mail not sent: no SMTP configured').length -
            1 +
            output.split('SMS not sent: no SMS gateway configured').length -
            1,
        )
        .reduce((sum, lines) => sum + lines, 0);
    let sent = { messages: 0, most: 0, pending: 0 };
    // A line reaches this process a moment after its message's row is marked: wait for both to settle.
    for (let tries = 0; tries < 50; tries++) {
      const rows = await check.query<{ messages: string; most: number | null; pending: string }>(
        `select count(*) filter (where claimed_at >= $1 and status in ('sent', 'not_sent', 'failed')) as messages,
           max(attempts) filter (where claimed_at >= $1) as most,
           count(*) filter (where status = 'sending' or (status = 'queued' and next_attempt_at <= now())) as pending
         from notifications`,
        [startedAt],
      );
      const row = rows.rows[0];
      sent = { messages: Number(row?.messages), most: Number(row?.most), pending: Number(row?.pending) };
      if (sent.pending === 0 && sendLines() === sent.messages) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sent.pending).toBe(0);
    expect(sent.messages).toBeGreaterThan(0);
    expect(sent.most).toBe(1);
    expect(sendLines()).toBe(sent.messages);
    // The overdue-visit reminder, raised by all three processes: one message per site and recipient.
    const reminders = await check.query<{ messages: string; distinct_messages: string }>(
      `select count(*) as messages,
         count(distinct (dedupe_key, channel, recipient_user_id)) as distinct_messages
       from notifications where event_type = 'visit_overdue' and created_at >= $1`,
      [startedAt],
    );
    expect(Number(reminders.rows[0]?.messages)).toBeGreaterThan(0);
    expect(reminders.rows[0]?.distinct_messages).toBe(reminders.rows[0]?.messages);
  }, 60_000);

  it('holds a login lockout and the login rate limit on every process', async () => {
    // Five wrong passwords on the first process lock this address out of the account (the fifth is
    // answered 423)…
    const attempt = (base: string, address: string, email: string, password: string) =>
      fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ email, password }),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      });
    const [first, second, third] = servers.map((server) => server.url) as [string, string, string];
    for (let i = 0; i < 4; i++)
      expect(await attempt(first, '198.51.100.7', 'cra@demo.cdms', 'wrong')).toBe(401);
    expect(await attempt(first, '198.51.100.7', 'cra@demo.cdms', 'wrong')).toBe(423);
    // …on the other processes and through the balancer too, even with the right password.
    for (const base of [second, third, balanced])
      expect(await attempt(base, '198.51.100.7', 'cra@demo.cdms', 'cdms-demo-2026')).toBe(423);

    // 30 attempts per address and window, ten on each process: the 31st is refused on any of them.
    for (let i = 0; i < 30; i++) {
      const base = [first, second, third][i % 3] as string;
      expect(await attempt(base, '203.0.113.9', `nobody${i}@example.org`, 'wrong')).toBe(401);
    }
    for (const base of [first, second, third, balanced])
      expect(await attempt(base, '203.0.113.9', 'nobody-more@example.org', 'wrong')).toBe(429);
  }, 60_000);

  it('measures saves per second through one process and through three', async () => {
    const one = await burst(toFirstOnly, writers, BURST_MS);
    const three = await burst(balanced, writers, BURST_MS);
    console.log(
      `saves per second with ${writers.length} concurrent savers (${os.cpus().length} CPUs): ` +
        `1 process ${one.perSecond.toFixed(1)} (${one.saved} in ${one.seconds.toFixed(1)} s), ` +
        `3 processes ${three.perSecond.toFixed(1)} (${three.saved} in ${three.seconds.toFixed(1)} s), ` +
        `ratio ${(three.perSecond / one.perSecond).toFixed(2)}`,
    );
    expect(one.failed).toBe(0);
    expect(three.failed).toBe(0);
    expect(one.saved).toBeGreaterThan(0);
    expect(three.saved).toBeGreaterThan(0);
  }, 60_000);

  it('loses no acknowledged save when one process is killed with SIGKILL mid-burst', async () => {
    const running = burst(balanced, writers, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const victim = servers[2] as ServerProcess;
    victim.process.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    const result = await running;
    console.log(
      `kill -9 of one of three processes during ${result.seconds.toFixed(1)} s of saves: ` +
        `${result.saved} answered 200, ${result.failed} failed or refused (then read again)`,
    );
    // The other two went on saving after the kill.
    expect(result.saved).toBeGreaterThan(0);

    // Every save answered 2xx is stored: each form's version is at least the highest one a save
    // reported, and its audit trail holds a heart-rate change for every acknowledged save.
    for (const writer of writers) {
      const stored = await check.query<{ version: number; changes: string }>(
        `select f.version,
           (select count(*) from audit_events a where a.subject_id = f.subject_id
              and a.event_type = 'data.item_changed' and a.entity_id = 'v1.vitalSigns.heartRate'
              and a.reason like '부하 분산 시험%') as changes
         from form_instances f where f.subject_id = $1 and f.visit_key = 'v1' and f.form_key = 'vitalSigns'`,
        [writer.subjectId],
      );
      const row = stored.rows[0];
      expect(row?.version).toBeGreaterThanOrEqual(writer.highestAcknowledgedVersion);
      expect(Number(row?.changes)).toBeGreaterThanOrEqual(writer.acknowledged);
    }
  }, 60_000);
});
