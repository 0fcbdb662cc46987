import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { scheduleAuditCheckpoints } from './schedule-audit-checkpoints.ts';
import { verifyAuditCheckpoints } from './verify-audit-checkpoints.ts';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-checkpoint-timer-'));
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

const key = 'a-checkpoint-key-of-at-least-32-characters';

function linesOf(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

describeWithDatabase('scheduleAuditCheckpoints', (database) => {
  it('anchors a moved head on each tick, skips an unchanged one, and anchors once more on stop', async () => {
    const db = database().db;
    const file = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    const log = { info: vi.fn(), error: vi.fn() };
    await recordAudit(db, systemActor('test'), { type: 'site.created', entityType: 'site', entityId: 1 });

    const schedule = scheduleAuditCheckpoints(db, { key, file }, 20, log);
    await vi.waitFor(() => expect(linesOf(file)).toHaveLength(1), { timeout: 5000 });
    // Several more ticks with the head where it was: no new line.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(linesOf(file)).toHaveLength(1);

    await recordAudit(db, systemActor('test'), { type: 'site.updated', entityType: 'site', entityId: 1 });
    await vi.waitFor(() => expect(linesOf(file)).toHaveLength(2), { timeout: 5000 });
    // A record written just before shutdown is anchored by stop(), whether or not a tick got to it.
    await recordAudit(db, systemActor('test'), { type: 'site.updated', entityType: 'site', entityId: 1 });
    await schedule.stop();
    expect(linesOf(file)).toHaveLength(3);
    expect(JSON.parse(linesOf(file)[2] ?? '{}')).toMatchObject({ auditEventId: 3 });
    expect(log.error).not.toHaveBeenCalled();
    expect(await verifyAuditCheckpoints(db, { key, file })).toMatchObject({ ok: true, checked: 3 });
  });

  it('logs a failed write and keeps going', async () => {
    const log = { info: vi.fn(), error: vi.fn() };
    // A directory where the file should be: every write fails.
    const schedule = scheduleAuditCheckpoints(database().db, { key, file: directory }, 20, log);
    await vi.waitFor(() => expect(log.error).toHaveBeenCalled(), { timeout: 5000 });
    await schedule.stop();
  });
});
