import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { rewriteAuditHistory } from '../../test/rewrite-audit-history.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { Database } from '../db/schema.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { signAuditCheckpoint } from './sign-audit-checkpoint.ts';
import { verifyAuditChain } from './verify-audit-chain.ts';
import { verifyAuditCheckpoints } from './verify-audit-checkpoints.ts';
import { writeAuditCheckpoint } from './write-audit-checkpoint.ts';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-checkpoints-'));
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

const key = 'a-checkpoint-key-of-at-least-32-characters';
const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };

async function writeRecords(db: Kysely<Database>, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await recordAudit(db, actor, {
      type: 'user.updated',
      entityType: 'user',
      entityId: index,
      after: { name: `name ${index}` },
    });
  }
}

describeWithDatabase('audit checkpoints', (database) => {
  let file = '';

  it('writes nothing while the trail is empty, then one signed line per new head', async () => {
    file = path.join(directory, `${crypto.randomUUID()}`, 'checkpoints.jsonl');
    const db = database().db;
    expect(await writeAuditCheckpoint(db, { key, file })).toBeNull();
    await writeRecords(db, 5);
    const first = await writeAuditCheckpoint(db, { key, file });
    expect(first).toMatchObject({ version: 1, auditEventId: 5, recordCount: 5 });
    // The periodic writer passes the id it anchored last: an unchanged head adds no line.
    expect(await writeAuditCheckpoint(db, { key, file }, { unlessAt: 5 })).toBeNull();
    await writeRecords(db, 5);
    expect(await writeAuditCheckpoint(db, { key, file }, { unlessAt: 5 })).toMatchObject({
      auditEventId: 10,
    });
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(await verifyAuditCheckpoints(db, { key, file })).toEqual({
      ok: true,
      fileFound: true,
      checked: 2,
      findings: [],
      missing: null,
    });
    // The database counted them: how many, and the last one's signature.
    const counted = await db.selectFrom('audit_checkpoint_head').selectAll().executeTakeFirstOrThrow();
    expect(counted).toMatchObject({ written: 2, last_audit_event_id: 10 });
  });

  it('fails when the checkpoint file is missing, empty or cut short (issue 43)', async () => {
    const db = database().db;
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const lastId = 10;
    const missing = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    expect(await verifyAuditCheckpoints(db, { key, file: missing })).toEqual({
      ok: false,
      fileFound: false,
      checked: 0,
      findings: [],
      missing: { recorded: 2, inFile: 0, lastFound: false, lastAuditEventId: lastId },
    });
    const empty = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    fs.writeFileSync(empty, '');
    expect(await verifyAuditCheckpoints(db, { key, file: empty })).toMatchObject({
      ok: false,
      fileFound: true,
      missing: { recorded: 2, inFile: 0, lastFound: false },
    });
    // The last line gone: the file ends at the first checkpoint.
    const cut = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    fs.writeFileSync(cut, `${lines[0]}\n`);
    expect(await verifyAuditCheckpoints(db, { key, file: cut })).toMatchObject({
      ok: false,
      findings: [],
      missing: { recorded: 2, inFile: 1, lastFound: false },
    });
    // The first line gone, the last kept: fewer than were counted.
    const headless = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    fs.writeFileSync(headless, `${lines[1]}\n`);
    expect(await verifyAuditCheckpoints(db, { key, file: headless })).toMatchObject({
      ok: false,
      missing: { recorded: 2, inFile: 1, lastFound: true },
    });
  });

  it('reports a forged or edited checkpoint line, and every line under another key', async () => {
    const db = database().db;
    const forgedFile = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    const [first = '', second = ''] = fs.readFileSync(file, 'utf8').trim().split('\n');
    const edited = JSON.stringify({ ...JSON.parse(second), recordCount: 3 });
    fs.writeFileSync(forgedFile, `${first}\n${edited}\nnot json\n`);
    expect((await verifyAuditCheckpoints(db, { key, file: forgedFile })).findings).toEqual([
      { line: 2, problem: 'bad_signature', auditEventId: 10 },
      { line: 3, problem: 'malformed' },
    ]);
    const otherKey = 'another-key-of-at-least-32-characters!!';
    expect((await verifyAuditCheckpoints(db, { key: otherKey, file })).findings).toEqual([
      { line: 1, problem: 'bad_signature', auditEventId: 5 },
      { line: 2, problem: 'bad_signature', auditEventId: 10 },
    ]);
  });

  it('catches a rewritten chain that the chain alone calls intact (the issue 11 attack)', async () => {
    const db = database().db;
    await rewriteAuditHistory(db, 3);
    // The limit of a hash chain: recomputed hashes fit together again.
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 10, breaks: [] });
    // The checkpoints, signed with a key the database never held, do not.
    expect(await verifyAuditCheckpoints(db, { key, file })).toEqual({
      ok: false,
      fileFound: true,
      checked: 2,
      findings: [
        { line: 1, problem: 'hash_differs', auditEventId: 5 },
        { line: 2, problem: 'hash_differs', auditEventId: 10 },
      ],
      missing: null,
    });
  });
});

describeWithDatabase('audit checkpoints without a file', (database) => {
  it('passes a missing file only while the database counted no checkpoint', async () => {
    const db = database().db;
    const file = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    await writeRecords(db, 2);
    expect(await verifyAuditCheckpoints(db, { key, file })).toEqual({
      ok: true,
      fileFound: false,
      checked: 0,
      findings: [],
      missing: null,
    });
  });

  it('accepts a line the database did not count yet (a crash between the file and the count)', async () => {
    const db = database().db;
    const file = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    const counted = await writeAuditCheckpoint(db, { key, file });
    // A second line signed and written, its count never made: as if the process died in between.
    const uncounted = signAuditCheckpoint(
      { auditEventId: 2, hash: counted?.hash ?? '', recordCount: 2, createdAt: new Date().toISOString() },
      key,
    );
    fs.appendFileSync(file, `${JSON.stringify(uncounted)}\n`);
    expect(await verifyAuditCheckpoints(db, { key, file })).toMatchObject({ ok: true, missing: null });
  });

  it('cannot be moved backwards or emptied, whoever asks', async () => {
    const db = database().db;
    await expect(sql`update audit_checkpoint_head set written = 0`.execute(db)).rejects.toThrow(
      /only counts up/,
    );
    await expect(sql`delete from audit_checkpoint_head`.execute(db)).rejects.toThrow(/only counts up/);
    await expect(sql`truncate audit_checkpoint_head`.execute(db)).rejects.toThrow(/only counts up/);
  });
});

describeWithDatabase('audit checkpoints after the tail is cut', (database) => {
  it('reports records removed after a checkpoint, even when the chain head is moved back', async () => {
    const db = database().db;
    const file = path.join(directory, `${crypto.randomUUID()}.jsonl`);
    await writeRecords(db, 6);
    await writeAuditCheckpoint(db, { key, file });
    await sql`alter table audit_events disable trigger audit_events_append_only`.execute(db);
    await sql`delete from audit_events where id > 4`.execute(db);
    await sql`alter table audit_events enable trigger audit_events_append_only`.execute(db);
    const last = await db
      .selectFrom('audit_events')
      .select('hash')
      .where('id', '=', 4)
      .executeTakeFirstOrThrow();
    await db.updateTable('audit_chain_head').set({ last_id: 4, last_hash: last.hash }).execute();

    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 4 });
    expect((await verifyAuditCheckpoints(db, { key, file })).findings).toEqual([
      { line: 1, problem: 'record_missing', auditEventId: 6 },
      { line: 1, problem: 'fewer_records', auditEventId: 6 },
    ]);
  });
});
