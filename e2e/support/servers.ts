import { test } from '@playwright/test';

/**
 * How many Playwright workers run the end-to-end tests (playwright.config.ts), and so how many servers
 * global-setup.ts starts: one per worker, each with its own data directory and mailbox, because the
 * tests change the server's data. `E2E_WORKERS` overrides the default of 2 (`E2E_WORKERS=1`: the whole
 * suite one file after another on one server, as before).
 */
export const E2E_WORKERS = workerCount(process.env.E2E_WORKERS);

function workerCount(value: string | undefined): number {
  if (value === undefined || value === '') return 2;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`E2E_WORKERS must be a whole number of workers, 1 or more (it is "${value}").`);
  }
  return count;
}

/** One server global-setup.ts started: its URL, and the directory its e-mails are filed in as `<n>.eml`. */
export interface E2eServer {
  baseUrl: string;
  mailbox: string;
}

/** The variable that hands the servers from the global setup to the workers (which inherit its env). */
const SERVERS_VARIABLE = 'CDMS_E2E_SERVERS';

/** Called by the global setup once its servers run: the workers and scripts read them with e2eServer. */
export function publishE2eServers(servers: E2eServer[]): void {
  process.env[SERVERS_VARIABLE] = JSON.stringify(servers);
}

/**
 * The server of the running test's worker. Its slot (`parallelIndex`, 0 … workers − 1) is what
 * tells two workers running at once apart; `workerIndex` is not, since it grows each time a worker
 * is replaced after a failure. Outside a test (a script), pass the index.
 */
export function e2eServer(index: number = test.info().parallelIndex): E2eServer {
  const published = process.env[SERVERS_VARIABLE];
  if (!published) throw new Error(`${SERVERS_VARIABLE} is not set: the e2e global setup did not run.`);
  const servers = JSON.parse(published) as E2eServer[];
  const server = servers[index];
  if (!server) {
    throw new Error(`Worker slot ${index} has no server: the global setup started ${servers.length}.`);
  }
  return server;
}
