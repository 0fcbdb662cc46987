import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';

/**
 * Issue 51 item 5 over the living demo (run by test/living-demo.test.ts): the two serious adverse events
 * of TMP-2026 each have their SAE report — one submitted by the PI, followed up and acknowledged by the
 * safety desk, within its clock; one in progress with its clock running (due within the next hours of
 * the seed) — and every step is in the audit trail and the outbox.
 */
export function demoSafetyChecks(database: () => DatabaseHandle): void {
  it('has one SAE report submitted, followed up and acknowledged, and one in progress on its clock', async () => {
    const db = database().db;
    const study = await db
      .selectFrom('studies')
      .select('id')
      .where('code', '=', 'TMP-2026')
      .executeTakeFirstOrThrow();
    const reports = await db
      .selectFrom('sae_reports')
      .selectAll()
      .where('study_id', '=', study.id)
      .orderBy('id')
      .execute();
    expect(reports).toHaveLength(2);
    const done = reports.find((report) => report.status === 'acknowledged');
    const open = reports.find((report) => report.status === 'draft');
    expect(done).toMatchObject({ current_version: 2 });
    expect(done?.first_submitted_at?.getTime()).toBeLessThanOrEqual(done?.due_at.getTime() ?? 0);
    const versions = await db
      .selectFrom('sae_report_versions as v')
      .innerJoin('users as u', 'u.id', 'v.acknowledged_by')
      .select(['v.version', 'v.submitted_name', 'u.email'])
      .where('v.report_id', '=', done?.id ?? 0)
      .orderBy('v.version')
      .execute();
    expect(versions).toEqual([
      { version: 1, submitted_name: '김연구', email: 'safety@demo.cdms' },
      { version: 2, submitted_name: '김연구', email: 'safety@demo.cdms' },
    ]);

    // In progress: on the clock, not overdue at the seed, due within a day of awareness.
    expect(open?.first_submitted_at).toBeNull();
    const awareness = open?.awareness_at.getTime() ?? 0;
    expect(open?.due_at.getTime()).toBe(awareness + 24 * 3_600_000);
    const created = open?.created_at.getTime() ?? 0;
    expect(open?.due_at.getTime()).toBeGreaterThan(created);
    expect(open?.due_at.getTime()).toBeLessThan(created + 12 * 3_600_000);

    const audited = await db
      .selectFrom('audit_events')
      .select('event_type')
      .where('entity_type', '=', 'sae_report')
      .where('entity_id', '=', String(done?.id))
      .orderBy('id')
      .execute();
    expect(audited.map((row) => row.event_type)).toEqual([
      'sae.started',
      'sae.draft_saved',
      'sae.submitted',
      'sae.acknowledged',
      'sae.follow_up_started',
      'sae.draft_saved',
      'sae.submitted',
      'sae.acknowledged',
    ]);
    const outbox = await db
      .selectFrom('notifications')
      .select('dedupe_key')
      .where('event_type', '=', 'sae_report')
      .where('study_id', '=', study.id)
      .execute();
    const keys = new Set(outbox.map((row) => row.dedupe_key));
    // The site-03 report's start told no one: its coordinator saved it, and the site has no other account.
    for (const key of [
      `sae-started:${done?.id}`,
      `sae-submitted:${done?.id}:2`,
      `sae-acknowledged:${done?.id}:1`,
    ])
      expect(keys).toContain(key);
  });
}
