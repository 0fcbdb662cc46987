import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { databaseUrl, dropPostgresDatabase } from '../../test/database-templates.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { verifyAuditCheckpoints } from '../audit/verify-audit-checkpoints.ts';
import { writeAuditCheckpoint } from '../audit/write-audit-checkpoint.ts';
import { loadCasebookHeader } from '../casebook/export-subject-casebook.ts';
import { loadCasebooks } from '../casebook/load-casebooks.ts';
import { renderCasebookPdf } from '../casebook/render-casebook-pdf.ts';
import { type DatabaseHandle, openPGlite, openPostgres } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import type { BackupManifest } from './backup-manifest.ts';
import { type RestoreConfig, restoreBackup } from './restore-backup.ts';
import { writeBackup } from './write-backup.ts';

const CHECKPOINT_KEY = 'backup-test-checkpoint-key-0123456789abcdef';

/**
 * Issue 52 item 1: the living demo backed up, restored into a fresh database of the same kind, and
 * found the same: the audit chain and its signed checkpoints verify, every table holds the same
 * rows (each table's rows compared as one digest of their text), sample values are read back, and a
 * subject's casebook PDF with its audit trail is the same bytes when printed at the same time.
 */
describeWithDatabase(
  'backup and restore of the living demo',
  (database) => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-backup-'));
    const archive = path.join(workDir, 'backup.tar');
    const sourceCheckpoints = path.join(workDir, 'source-checkpoints.jsonl');
    let target: RestoreConfig;
    let targetDatabaseName: string | undefined;
    let manifest: BackupManifest;
    let restored: DatabaseHandle;

    beforeAll(async () => {
      const source = database();
      // A signed checkpoint in the source, so the archive carries the checkpoint file too.
      await writeAuditCheckpoint(source.db, { key: CHECKPOINT_KEY, file: sourceCheckpoints });
      const postgres = inject('testDatabaseSources').postgres;
      let sourceUrl: string | undefined;
      if (source.kind === 'postgres') {
        if (!postgres) throw new Error('TEST_DATABASE_URL is not set.');
        const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(source.db);
        sourceUrl = databaseUrl(postgres.url, rows[0]?.name ?? '');
      }
      manifest = await writeBackup(
        source,
        {
          databaseUrl: sourceUrl,
          databaseOwnerUrl: undefined,
          auditCheckpoint: { key: CHECKPOINT_KEY, file: sourceCheckpoints, intervalSeconds: 0 },
        },
        archive,
      );

      let targetUrl: string | undefined;
      if (source.kind === 'postgres' && postgres) {
        targetDatabaseName = `${postgres.prefix}_r${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
        const admin = openPostgres({ connectionString: postgres.url, maxConnections: 1 });
        await sql`create database ${sql.id(targetDatabaseName)}`.execute(admin.db);
        await admin.close();
        targetUrl = databaseUrl(postgres.url, targetDatabaseName);
      }
      target = {
        databaseUrl: targetUrl,
        databaseOwnerUrl: undefined,
        dataDir: path.join(workDir, 'restored'),
        auditCheckpoint: {
          key: CHECKPOINT_KEY,
          file: path.join(workDir, 'restored', 'audit-checkpoints.jsonl'),
          intervalSeconds: 0,
        },
      };
      await restoreBackup(target, archive);
      restored = targetUrl
        ? openPostgres({ connectionString: targetUrl, maxConnections: 2 })
        : await openPGlite(target.dataDir);
    }, 180_000);

    afterAll(async () => {
      await restored?.close();
      const postgres = inject('testDatabaseSources').postgres;
      if (targetDatabaseName && postgres) await dropPostgresDatabase(postgres.url, targetDatabaseName);
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    it('writes one archive whose manifest describes the demo: its tables, chain head, checkpoint and stored files', () => {
      expect(manifest.database.kind).toBe(database().kind);
      expect(manifest.tables.subjects).toBeGreaterThan(20);
      expect(manifest.audit.head?.lastId).toBeGreaterThan(100);
      expect(manifest.audit.checkpoints.written).toBe(1);
      expect(manifest.audit.checkpoints.lastAuditEventId).toBe(manifest.audit.head?.lastId);
      // The demo's eardrum photos and its guidelines' documents are in it.
      expect(manifest.files.formPhotos.count).toBeGreaterThan(0);
      expect(manifest.files.attachments.count).toBeGreaterThan(0);
      expect(manifest.parts.map((part) => part.role)).toEqual([
        database().kind === 'postgres' ? 'pg_dump' : 'pglite_data_dir',
        'audit_checkpoints',
      ]);
    });

    it('restores an audit trail that verifies, with its signed checkpoints', async () => {
      const chain = await verifyAuditChain(restored.db);
      expect(chain.ok).toBe(true);
      expect(chain.count).toBe(manifest.audit.head?.lastId);
      const checkpoints = await verifyAuditCheckpoints(restored.db, {
        key: CHECKPOINT_KEY,
        file: target.auditCheckpoint.file,
      });
      expect(checkpoints).toMatchObject({ ok: true, checked: 1, findings: [] });
    });

    it('restores every table with the same rows', async () => {
      const before = await tableDigests(database().db);
      const after = await tableDigests(restored.db);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      expect(Object.keys(before).length).toBe(Object.keys(manifest.tables).length);
      const differing = Object.keys(before).filter((table) => before[table] !== after[table]);
      expect(differing).toEqual([]);
    });

    it('reads back sample values: a subject, a saved value, a photo and a document byte for byte', async () => {
      const sample = async (db: Kysely<Database>) => ({
        subject: await db
          .selectFrom('subjects')
          .select(['id', 'screening_number', 'site_id'])
          .orderBy('id')
          .limit(1)
          .executeTakeFirstOrThrow(),
        value: await db
          .selectFrom('item_values')
          .selectAll()
          .orderBy('updated_at', 'desc')
          .orderBy('form_instance_id')
          .orderBy('item_key')
          .limit(1)
          .executeTakeFirstOrThrow(),
        photo: await db
          .selectFrom('form_photos')
          .select(['sha256', 'bytes'])
          .orderBy('id')
          .limit(1)
          .executeTakeFirstOrThrow(),
        document: await db
          .selectFrom('attachment_chunks')
          .select(['sha256', 'seq', 'bytes'])
          .orderBy('sha256')
          .orderBy('seq')
          .limit(1)
          .executeTakeFirstOrThrow(),
      });
      const before = await sample(database().db);
      const after = await sample(restored.db);
      expect(after).toEqual(before);
      expect(Buffer.from(after.photo.bytes).length).toBeGreaterThan(1000);
    });

    it('prints a subject’s casebook, with its audit trail, as the same bytes', async () => {
      const printedAt = new Date('2026-12-07T09:00:00Z');
      const before = await casebookPdf(database().db, printedAt);
      const after = await casebookPdf(restored.db, printedAt);
      expect(before.length).toBeGreaterThan(10_000);
      expect(after.equals(before)).toBe(true);
    });
  },
  { seed: 'living-demo' },
);

/** Each table's rows as one digest of their text, in the text's order. */
async function tableDigests(db: Kysely<Database>): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const digests: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ digest: string | null }>`
      select md5(string_agg(t::text, E'\\n' order by t::text)) as digest from ${sql.table(name)} t`.execute(
      db,
    );
    digests[name] = rows[0]?.digest ?? 'empty';
  }
  return digests;
}

/** The casebook PDF of the subject with the most audit records, printed at `printedAt`. */
async function casebookPdf(db: Kysely<Database>, printedAt: Date): Promise<Buffer> {
  const subject = await db
    .selectFrom('audit_events')
    .innerJoin('subjects', 'subjects.id', 'audit_events.subject_id')
    .select(['subjects.id', 'subjects.study_id', 'subjects.site_id'])
    .groupBy(['subjects.id', 'subjects.study_id', 'subjects.site_id'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('subjects.id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const definition = await currentStudyDefinition(db, subject.study_id);
  if (!definition) throw new Error('the demo study has no definition');
  const [casebook] = await loadCasebooks(db, {
    studyId: subject.study_id,
    subjectIds: [subject.id],
    audit: true,
  });
  if (!casebook) throw new Error('no casebook');
  const pdf = await renderCasebookPdf({
    header: await loadCasebookHeader(db, subject.study_id, subject.site_id),
    definition: definition.definition,
    language: 'ko',
    withAudit: true,
    printedAt,
    printedBy: 'Backup test',
    subject: casebook,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
