import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the server reads, parsed once at start. A bad value stops the process
 * with a message naming the variable (see `formatConfigError`). README.md's configuration table
 * lists the same variables; keep the two in step.
 */
const booleanFlag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

/**
 * TRUST_PROXY: how many reverse proxies in front of the server to believe (`0`/`false` none,
 * `1`/`true` one hop, `2` two…), or a comma-separated list of proxy addresses/CIDRs. The client
 * address is then the one the nearest trusted proxy saw; anything a client wrote further left in
 * X-Forwarded-For is ignored. Handed to Fastify's `trustProxy` as is.
 */
const trustProxySetting = z
  .string()
  .trim()
  .transform((value, context): number | string[] => {
    if (value === 'false') return 0;
    if (value === 'true') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries;
    context.addIssue({
      code: 'custom',
      message: 'must be a number of trusted proxy hops (0-99) or a comma-separated list of addresses/CIDRs',
    });
    return z.NEVER;
  });

/**
 * The setting as Fastify's `trustProxy`. A hop count becomes a function because Fastify 5.12 trusts
 * nobody for a bare number; `(address, hop) => hop < hops` is the hop semantics of proxy-addr:
 * the socket peer is hop 0, the entries of X-Forwarded-For from the right are hops 1, 2…
 */
export function fastifyTrustProxy(setting: number | string[]): false | string[] | TrustProxyFunction {
  if (Array.isArray(setting)) return setting;
  if (setting === 0) return false;
  return (_address, hop) => hop < setting;
}
type TrustProxyFunction = (address: string, hop: number) => boolean;

function isProxyAddress(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_OWNER_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(8),
  AUDIT_CHECKPOINT_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  AUDIT_CHECKPOINT_FILE: z.string().min(1).optional(),
  AUDIT_CHECKPOINT_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(604_800).default(3600),
  BACKUP_INTERVAL_HOURS: z.coerce.number().int().min(0).max(8760).default(0),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: trustProxySetting.default(0),
  SESSION_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3000),
  SESSION_MAX_SECONDS: z.coerce.number().int().min(1).max(2_592_000).default(43_200),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCKOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  LOGIN_EMAIL_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  CDMS_DEMO: booleanFlag.optional(),
  SUPPORT_EMAIL: z.email().default('support@demo.cdms'),
  SUPPORT_PHONE: z.string().max(40).default(''),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).max(200).default('CDMS <no-reply@localhost>'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
  MIGRATION_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  MONITORING_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL only: the role that owns the schema. When set, migrations run with it and the server
   * uses `databaseUrl` (a role that cannot alter the audit table or disable its triggers) for the rest.
   */
  databaseOwnerUrl: string | undefined;
  /**
   * PostgreSQL only: the most connections this process holds, and so the most transactions it has
   * PostgreSQL work on at once; further requests wait for a connection in the server. Default 8,
   * measured on the 2-core machine of issue 12 (docs/PERFORMANCE.md): with 10, 32 concurrent savers
   * got ~3 % fewer saves than 8 (more backends contending for the same cores and the audit chain's
   * head); with 8, ~4 % more. Several processes on one PostgreSQL add up theirs.
   */
  databasePoolSize: number;
  /**
   * Signed checkpoints of the audit chain's head, kept outside the database (audit/sign-audit-checkpoint.ts).
   * No key: no checkpoints. `intervalSeconds` 0: only on demand (`npm run cdms -- audit checkpoint`).
   */
  auditCheckpoint: { key: string | undefined; file: string; intervalSeconds: number };
  /**
   * Issue 52: scheduled backups (backup/schedule-backups.ts): one archive every `intervalHours`
   * (0: none, the default) into `dir`, of which the newest `keep` are kept. One process of all those
   * sharing the database takes each one.
   */
  backup: { intervalHours: number; dir: string; keep: number };
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  /** The built web app (apps/web/dist) served at `/`. */
  webDistDir: string;
  /**
   * Reverse proxies to believe for the client address and https (X-Forwarded-*): a number of hops
   * (0 = none) or the proxies' addresses/CIDRs. Fastify's `trustProxy` semantics.
   */
  trustProxy: number | string[];
  session: { idleSeconds: number; maxSeconds: number };
  /**
   * How long a process holds an amendment migration job it claimed (amendment-migration/): a process
   * killed mid-batch leaves the job to another after this.
   */
  migrationLeaseSeconds: number;
  /**
   * Central monitoring (issue 50): a study whose data changed since its last run is run again at most
   * this often (central-monitoring/run-monitoring-turn.ts).
   */
  monitoringRefreshMinutes: number;
  /** Login throttling; the policy is described in auth/login-throttle.ts. */
  login: {
    maxFailures: number;
    lockoutSeconds: number;
    emailDelayMaxSeconds: number;
    rateLimit: number;
    rateWindowSeconds: number;
  };
  /**
   * Seed the demo study and accounts into an empty database: on by default for the embedded
   * database outside production, off for PostgreSQL unless CDMS_DEMO=1.
   */
  seedDemo: boolean;
  /** Shown in the header's support panel. */
  support: { email: string; phone: string };
  /** Issue 18: where e-mail notifications leave (none: they are logged and marked not sent). */
  smtp: { url: string | undefined; from: string };
  /**
   * Issue 52: the bearer token a Prometheus scraper sends for GET /metrics. Not set: /metrics answers
   * only requests from this machine (loopback, not forwarded by a proxy).
   */
  metricsToken: string | undefined;
};

export class ConfigError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.issues = issues;
    this.name = 'ConfigError';
  }
}

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

// SMTP_URL may carry the mail server's password.
const SECRET_VARIABLES = new Set(['AUDIT_CHECKPOINT_KEY', 'SMTP_URL', 'METRICS_TOKEN']);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`PORT=`) means "not set", as in most shells' habits.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        // A secret is never repeated, not even in an error message that ends up in a log.
        const value = SECRET_VARIABLES.has(name) ? '(hidden)' : JSON.stringify(env[name] ?? null);
        return `${name}=${value}: ${issue.message}`;
      }),
    );
  }
  const values = parsed.data;
  if (values.DATABASE_OWNER_URL !== undefined && values.DATABASE_URL === undefined) {
    throw new ConfigError([
      'DATABASE_OWNER_URL is set without DATABASE_URL: the owner role is for PostgreSQL, set both',
    ]);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    env: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databaseOwnerUrl: values.DATABASE_OWNER_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    auditCheckpoint: {
      key: values.AUDIT_CHECKPOINT_KEY,
      file: path.resolve(values.AUDIT_CHECKPOINT_FILE ?? path.join(dataDir, 'audit-checkpoints.jsonl')),
      intervalSeconds: values.AUDIT_CHECKPOINT_INTERVAL_SECONDS,
    },
    backup: {
      intervalHours: values.BACKUP_INTERVAL_HOURS,
      dir: path.resolve(values.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      keep: values.BACKUP_KEEP,
    },
    logLevel: values.LOG_LEVEL,
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? path.join(repositoryRoot, 'apps/web/dist')),
    trustProxy: values.TRUST_PROXY,
    session: { idleSeconds: values.SESSION_IDLE_SECONDS, maxSeconds: values.SESSION_MAX_SECONDS },
    migrationLeaseSeconds: values.MIGRATION_LEASE_SECONDS,
    monitoringRefreshMinutes: values.MONITORING_REFRESH_MINUTES,
    login: {
      maxFailures: values.LOGIN_MAX_FAILURES,
      lockoutSeconds: values.LOGIN_LOCKOUT_SECONDS,
      emailDelayMaxSeconds: values.LOGIN_EMAIL_DELAY_MAX_SECONDS,
      rateLimit: values.LOGIN_RATE_LIMIT,
      rateWindowSeconds: values.LOGIN_RATE_WINDOW_SECONDS,
    },
    seedDemo: values.CDMS_DEMO ?? (values.DATABASE_URL === undefined && values.NODE_ENV !== 'production'),
    support: { email: values.SUPPORT_EMAIL, phone: values.SUPPORT_PHONE },
    smtp: { url: values.SMTP_URL, from: values.SMTP_FROM },
    metricsToken: values.METRICS_TOKEN,
  };
}
