import type { AuditChainStatus } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import type { Database } from '../db/schema.ts';

/**
 * The hash chain's status for the audit review page: "intact up to record N (checked at …)" or the
 * first record that does not fit.
 *
 * Why a reused verification and not a walk per page view: `verifyAuditChain` reads every record of
 * every study (the chain is one line through the whole table) — seconds per million records, on each
 * view by every reviewer. Verifying only from the last signed checkpoint would be cheap but would miss
 * a record edited in place before it (its stored successor hash does not change), which is precisely
 * what the page must show. So the full walk is kept, and its result is shared: one verification per
 * server process at a time, reused for `maxAgeMs` (the page shows when it was checked), and redone
 * when it is older. Records appended since are covered by the next walk; a tampered record shows up
 * at most `maxAgeMs` later.
 */

export const CHAIN_STATUS_MAX_AGE_MS = 5 * 60_000;

interface Cached {
  status: AuditChainStatus;
  checkedAtMs: number;
}

const cache = new WeakMap<Kysely<Database>, Cached>();
const running = new WeakMap<Kysely<Database>, Promise<AuditChainStatus>>();

async function verifyNow(db: Kysely<Database>): Promise<AuditChainStatus> {
  const checkedAt = new Date();
  const result = await verifyAuditChain(db);
  const first = result.breaks[0];
  // Intact up to the record before the first break; the whole chain when none.
  const checkedUpTo = first ? Math.max(0, (first.missingFrom ?? first.id) - 1) : (result.head?.id ?? null);
  const status: AuditChainStatus = {
    state: first ? 'broken' : result.count === 0 ? 'empty' : 'intact',
    checkedUpTo,
    recordCount: result.count,
    firstBreakId: first?.id ?? null,
    problem: first?.problem ?? null,
    breakCount: result.breaks.length,
    checkedAt: checkedAt.toISOString(),
  };
  cache.set(db, { status, checkedAtMs: checkedAt.getTime() });
  return status;
}

export async function auditChainStatus(
  db: Kysely<Database>,
  options: { maxAgeMs?: number; now?: () => number } = {},
): Promise<AuditChainStatus> {
  const maxAgeMs = options.maxAgeMs ?? CHAIN_STATUS_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const cached = cache.get(db);
  if (cached && now() - cached.checkedAtMs < maxAgeMs) return cached.status;
  const inFlight = running.get(db);
  if (inFlight) return inFlight;
  const verification = verifyNow(db).finally(() => running.delete(db));
  running.set(db, verification);
  return verification;
}
