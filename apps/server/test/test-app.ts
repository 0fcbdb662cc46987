import type { Kysely } from 'kysely';
import { type BuildAppOptions, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import type { App } from '../src/http/types.ts';
import { DEMO_PASSWORD, seedDemoData } from '../src/seed/demo-seed.ts';

/** An in-process server over a test database; requests go through `app.inject`, no port. */
export async function buildTestApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  options: BuildAppOptions = {},
): Promise<App> {
  // Tests log in often from one address: the per-IP login limit is raised unless a test sets it.
  const config = loadConfig({ NODE_ENV: 'test', LOGIN_RATE_LIMIT: '100000', ...env });
  // No central monitoring runs in the background (issue 50): they would write beside what a test
  // counts; its tests drive the runs themselves or ask for the worker.
  return buildApp({ config, database }, { monitoringWorker: false, ...options });
}

/**
 * The demo study, sites and accounts (the seed is idempotent: it only fills an empty database).
 * Without subjects unless asked: `seedDemo(db, { subjects: true })` adds the living demo's subjects.
 */
export async function seedDemo(db: Kysely<Database>, options: { subjects?: boolean } = {}): Promise<void> {
  await seedDemoData(db, { subjects: options.subjects ?? false });
}

export interface SignedIn {
  cookie: string;
  csrfToken: string;
  /** Headers for a cookie-authenticated write. */
  headers: Record<string, string>;
  userId: number;
}

/** Logs in through the API and returns the session cookie and CSRF token. */
export async function signIn(app: App, email: string, password = DEMO_PASSWORD): Promise<SignedIn> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200)
    throw new Error(`login as ${email} failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'cdms_session');
  if (!cookie) throw new Error('no session cookie');
  const body = response.json();
  const cookieHeader = `cdms_session=${cookie.value}`;
  return {
    cookie: cookieHeader,
    csrfToken: body.csrfToken,
    headers: { cookie: cookieHeader, 'x-csrf-token': body.csrfToken },
    userId: body.user.id,
  };
}

/**
 * Who GET /api/auth/me says the cookie belongs to: the user (with at least `email`), or null when
 * the cookie's session has ended (the route answers 200 `{ user: null }` then, never 401).
 */
export async function sessionUser(app: App, cookie: string): Promise<{ email: string } | null> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
  if (response.statusCode !== 200)
    throw new Error(`GET /api/auth/me: ${response.statusCode} ${response.body}`);
  return response.json().user;
}

/** The demo study TMP-2026's id and its sites' ids by institution number ('01', '02', '03'). */
export async function demoStudyIds(
  db: Kysely<Database>,
): Promise<{ studyId: number; siteId: (institutionNumber: string) => number }> {
  const study = await db
    .selectFrom('studies')
    .select('id')
    .where('code', '=', 'TMP-2026')
    .executeTakeFirstOrThrow();
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', study.id)
    .execute();
  return {
    studyId: study.id,
    siteId: (institutionNumber) => {
      const site = sites.find((row) => row.institution_number === institutionNumber);
      if (!site) throw new Error(`no demo site ${institutionNumber}`);
      return site.id;
    },
  };
}
