import type { Kysely } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import type { ComputedIndicator } from './compute-indicators.ts';

/** How many days of a study's indicator values are kept for the trend. */
export const TREND_DAYS = 90;

/**
 * A run's indicators stored as the day's values (a later run the same day replaces them): the newest
 * day is what the page shows, the days before it its trend. Days older than `TREND_DAYS` are dropped.
 */
export async function storeIndicators(
  db: Kysely<Database>,
  studyId: number,
  day: string,
  indicators: readonly ComputedIndicator[],
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .deleteFrom('monitoring_indicator_days')
      .where('study_id', '=', studyId)
      .where((eb) => eb.or([eb('day', '=', day), eb('day', '<', sqlDaysBefore(day, TREND_DAYS))]))
      .execute();
    if (indicators.length === 0) return;
    await trx
      .insertInto('monitoring_indicator_days')
      .values(
        indicators.map((indicator) => ({
          study_id: studyId,
          site_id: indicator.siteId,
          key: indicator.key,
          day,
          value: indicator.value,
          numerator: indicator.numerator,
          denominator: indicator.denominator,
          subjects: indicator.subjects,
        })),
      )
      .execute();
  });
}

function sqlDaysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}
