import { type Kysely, sql } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import type { SignalDraft } from './signal-draft.ts';

/**
 * A run's signals stored by fingerprint, in one transaction: one found before gets its new numbers,
 * words and chart and stays in its state (a dismissed signal stays dismissed, a queried one keeps its
 * queries); a new one is added `open`; one no longer found is marked inactive (kept with its history,
 * not shown among the active ones). A signal found again after it went inactive is active again, in the
 * state it had.
 */
export async function storeSignals(
  db: Kysely<Database>,
  studyId: number,
  signals: readonly SignalDraft[],
): Promise<void> {
  // One draft per fingerprint (the last wins): a method never names the same thing twice in a run.
  const unique = new Map(signals.map((signal) => [signal.fingerprint, signal]));
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('monitoring_signals')
      .set({ active: false })
      .where('study_id', '=', studyId)
      .where('active', '=', true)
      .execute();
    const drafts = [...unique.values()];
    for (let start = 0; start < drafts.length; start += 500) {
      const chunk = drafts.slice(start, start + 500);
      await trx
        .insertInto('monitoring_signals')
        .values(
          chunk.map((signal) => ({
            study_id: studyId,
            site_id: signal.siteId,
            fingerprint: signal.fingerprint,
            kind: signal.kind,
            strength: signal.strength,
            active: true,
            title: JSON.stringify(signal.title),
            explanation: JSON.stringify(signal.explanation),
            items: JSON.stringify(signal.items),
            subjects: JSON.stringify(signal.subjects),
            numbers: JSON.stringify(signal.numbers),
            chart: JSON.stringify(signal.chart),
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['study_id', 'fingerprint']).doUpdateSet({
            site_id: sql`excluded.site_id`,
            strength: sql`excluded.strength`,
            active: true,
            title: sql`excluded.title`,
            explanation: sql`excluded.explanation`,
            items: sql`excluded.items`,
            subjects: sql`excluded.subjects`,
            numbers: sql`excluded.numbers`,
            chart: sql`excluded.chart`,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    }
  });
}
