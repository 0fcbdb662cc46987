import { type KriKey, kriKeys, type ToleranceLimit, type TrafficLight } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The default quality tolerance limits (README "Default limits"): used for every indicator a study has
 * not set. `warning` turns a site amber, `limit` red; `direction` says which side is the risk;
 * below `minimumDenominator` (values, queries, forms, subjects, subject-months, verified items) the
 * indicator is not judged (`none`).
 */
export const DEFAULT_TOLERANCE_LIMITS: Record<KriKey, ToleranceLimit> = {
  queryRate: { key: 'queryRate', warning: 10, limit: 20, direction: 'high', minimumDenominator: 100 },
  queryAnswerDays: {
    key: 'queryAnswerDays',
    warning: 7,
    limit: 14,
    direction: 'high',
    minimumDenominator: 5,
  },
  entryLagDays: { key: 'entryLagDays', warning: 5, limit: 10, direction: 'high', minimumDenominator: 10 },
  missingForms: { key: 'missingForms', warning: 0.5, limit: 1, direction: 'high', minimumDenominator: 5 },
  overdueVisits: { key: 'overdueVisits', warning: 0.2, limit: 0.5, direction: 'high', minimumDenominator: 5 },
  protocolDeviations: {
    key: 'protocolDeviations',
    warning: 0.3,
    limit: 0.6,
    direction: 'high',
    minimumDenominator: 5,
  },
  // Too few adverse events for the time followed may be under-reporting: the low side is the risk.
  adverseEventRate: {
    key: 'adverseEventRate',
    warning: 0.05,
    limit: 0.02,
    direction: 'low',
    minimumDenominator: 20,
  },
  seriousAdverseEventRate: {
    key: 'seriousAdverseEventRate',
    warning: 0.05,
    limit: 0.1,
    direction: 'high',
    minimumDenominator: 20,
  },
  screeningFailureRate: {
    key: 'screeningFailureRate',
    warning: 30,
    limit: 50,
    direction: 'high',
    minimumDenominator: 10,
  },
  sdvFindings: { key: 'sdvFindings', warning: 5, limit: 10, direction: 'high', minimumDenominator: 50 },
  correctionsPerForm: {
    key: 'correctionsPerForm',
    warning: 0.5,
    limit: 1,
    direction: 'high',
    minimumDenominator: 20,
  },
  // Issue 51: every SAE report is due within 24 hours; any late one is past the warning.
  overdueSaeReports: {
    key: 'overdueSaeReports',
    warning: 0,
    limit: 10,
    direction: 'high',
    minimumDenominator: 1,
  },
};

/** The study's limits, one per indicator in `kriKeys` order: its own where set, else the default. */
export async function readToleranceLimits(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<ToleranceLimit[]> {
  const rows = await db
    .selectFrom('monitoring_limits')
    .select(['key', 'warning', 'limit', 'direction', 'minimum_denominator'])
    .where('study_id', '=', studyId)
    .execute();
  const own = new Map(rows.map((row) => [row.key, row]));
  return kriKeys.map((key) => {
    const row = own.get(key);
    return row
      ? {
          key,
          warning: row.warning,
          limit: row.limit,
          direction: row.direction,
          minimumDenominator: row.minimum_denominator,
        }
      : DEFAULT_TOLERANCE_LIMITS[key];
  });
}

/** The traffic light of a value under its limit: `none` without a value or with too small a denominator. */
export function trafficLight(limit: ToleranceLimit, value: number | null, denominator: number): TrafficLight {
  if (value === null || denominator < limit.minimumDenominator) return 'none';
  if (limit.direction === 'high') {
    if (value > limit.limit) return 'red';
    return value > limit.warning ? 'amber' : 'green';
  }
  if (value < limit.limit) return 'red';
  return value < limit.warning ? 'amber' : 'green';
}

/** How far past its limits a light is, to sort the flagged indicators worst first. */
export function severityOf(light: TrafficLight): number {
  return light === 'red' ? 2 : light === 'amber' ? 1 : 0;
}
