import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createUserRequestSchema, passwordIssues } from '@cdms/contract';
import { sql } from 'kysely';
import { createUser } from '../admin/users.ts';
import { systemActor } from '../audit/audit-events.ts';
import { type AuditChainBreak, verifyAuditChain } from '../audit/verify-audit-chain.ts';
import {
  type AuditCheckpointFinding,
  type MissingAuditCheckpoints,
  verifyAuditCheckpoints,
} from '../audit/verify-audit-checkpoints.ts';
import { writeAuditCheckpoint } from '../audit/write-audit-checkpoint.ts';
import { isCommonPassword } from '../auth/common-passwords.ts';
import type { BackupManifest } from '../backup/backup-manifest.ts';
import { requestServerBackup, ServerBackupError } from '../backup/request-server-backup.ts';
import { RestoreMismatchError, restoreBackup } from '../backup/restore-backup.ts';
import { RestoreRefusal } from '../backup/restore-refusal.ts';
import { writeBackup } from '../backup/write-backup.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { DataDirectoryInUseError } from '../db/data-dir-lock.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { inTransaction } from '../db/in-transaction.ts';
import {
  exportTablesToFile,
  TABLES_FORMATS,
  type TablesFormat,
  TablesScopeError,
} from '../form-tables/index.ts';
import { errorMessage } from '../http/error-messages.ts';
import { AppError } from '../http/errors.ts';
import { ODM_VERSIONS, type OdmVersion } from '../odm/export-odm.ts';
import { ExportScopeError, exportOdmToFile } from '../odm/export-odm-to-file.ts';
import { openDatabase, openDatabaseAsIs } from '../open-database.ts';
import { generateRandomizationLists, randomizationStatus } from '../randomization/randomization.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';
import { seedDemoData } from '../seed/demo-seed.ts';
import { option } from './command-options.ts';
import { createStudyCommand, createStudyUsage } from './create-study-command.ts';

/**
 * `npm run cdms -- <command>`: administration from the shell, on the configured database
 * (DATABASE_URL, or the embedded one in DATA_DIR — which must not be open in a running server).
 *
 *   create-admin --email E --name N [--password-stdin]   a system administrator for a first start
 *   audit verify                                          check the hash chain and the signed checkpoints
 *                                                         (read-only, as DATABASE_URL's role; never migrates)
 *   audit checkpoint                                      sign the chain's head into AUDIT_CHECKPOINT_FILE
 *   randomization generate --study C --per-site N --seed S [--site NN]   permuted-block lists
 *   rebuild-read-model                                    recompute every subject's read-model rows
 *   export-odm --study ID --out FILE [--odm 1.3.2|2.0] [--audit] [--site CODE]   CDISC ODM, streamed to a file
 *   export-tables --study ID --out FILE [--format csv|xlsx] [--labels ko|en] [--values current|entered] [--site CODE] [--forms a,b]
 *                                                         per-form tables (CSV in a ZIP, or XLSX), streamed
 *   seed-demo [--without-subjects]                        the demo study and accounts (and the living demo)
 *                                                         in an empty database, as a first start seeds them
 *   study create --code C --title-ko T --admin-email E … [--site …] [--member …] [--definition F]
 *                                                         a study in design (create-study-command.ts)
 *   backup --out FILE                                     one archive: database, audit checkpoints, manifest
 *                                                         (backup/write-backup.ts; never migrates; a running
 *                                                         embedded server is asked to write it)
 *   restore ARCHIVE                                       a backup into an empty install (backup/restore-backup.ts)
 */
const usage = `Usage:
  npm run cdms -- create-admin --email <email> --name <name> [--password-stdin]
  npm run cdms -- audit verify
  npm run cdms -- audit checkpoint
  npm run cdms -- randomization generate --study <code> --per-site <n> --seed <text> [--site <institution number>]
  npm run cdms -- rebuild-read-model
  npm run cdms -- export-odm --study <id or code> --out <file> [--odm 1.3.2|2.0] [--audit] [--site <code>]
  npm run cdms -- export-tables --study <id or code> --out <file.zip|file.xlsx> [--format csv|xlsx] [--labels ko|en] [--values current|entered] [--site <code>] [--forms a,b,c]
  npm run cdms -- seed-demo [--without-subjects]
  ${createStudyUsage}
  npm run cdms -- backup --out <file.tar>
  npm run cdms -- restore <file.tar>`;

async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split('\n')[0] ?? '';
  }
  // Interactive: ask twice, without echoing what is typed.
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      const output = rl as unknown as { _writeToOutput: (text: string) => void };
      output._writeToOutput = (text: string) => {
        if (text.includes(question)) process.stdout.write(text);
      };
      rl.question(question, (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('Password: ');
  const second = await ask('Repeat password: ');
  if (first !== second) throw new Error('The two passwords differ.');
  return first;
}

async function createAdmin(database: DatabaseHandle, args: string[]): Promise<number> {
  const parsed = createUserRequestSchema.safeParse({
    email: option(args, 'email'),
    name: option(args, 'name'),
    isAdmin: true,
    password: 'placeholder-checked-below-1',
  });
  if (!parsed.success) {
    console.error(`create-admin needs --email and --name.\n${usage}`);
    return 2;
  }
  const password = await readPassword(args.includes('--password-stdin'));
  const issues = passwordIssues(password, parsed.data.email);
  if (issues.length > 0) {
    console.error(
      `The password does not meet the policy (${issues.join(', ')}): at least 10 characters, letters and digits, not containing the email.`,
    );
    return 2;
  }
  if (isCommonPassword(password)) {
    console.error('The password is one of the most common passwords: choose another.');
    return 2;
  }
  try {
    const user = await createUser(database.db, systemActor('cli'), { ...parsed.data, password });
    console.log(`Created system administrator ${user.email} (id ${user.id}).`);
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.code === 'email_taken') {
      console.error(`A user with the email ${parsed.data.email} already exists.`);
      return 1;
    }
    throw error;
  }
}

const breakDescriptions: Record<AuditChainBreak['problem'], string> = {
  hash_mismatch: 'its stored hash is not the hash of its contents (the record was changed)',
  link_mismatch: 'its previous_hash is not the hash of the record before it',
  gap: 'records are missing before it',
  head_mismatch: 'the chain head does not point at the last record (records removed at the end?)',
};

function describeBreak(entry: AuditChainBreak): string {
  const where = entry.problem === 'head_mismatch' ? `chain head (id ${entry.id})` : `record ${entry.id}`;
  const missing = entry.problem === 'gap' ? ` (ids ${entry.missingFrom}–${entry.id - 1})` : '';
  return `  ${where}: ${entry.problem}: ${breakDescriptions[entry.problem]}${missing}`;
}

const findingDescriptions: Record<AuditCheckpointFinding['problem'], string> = {
  malformed: 'not a checkpoint line',
  bad_signature: 'the signature does not match (line forged or edited, or signed with another key)',
  record_missing: 'the anchored record is no longer in the database',
  hash_differs: 'the anchored record has another hash now (the chain was rewritten)',
  fewer_records: 'the database holds fewer audit records than at this checkpoint',
};

function describeFinding(finding: AuditCheckpointFinding): string {
  const record = finding.auditEventId === undefined ? '' : ` (record ${finding.auditEventId})`;
  return `  line ${finding.line}${record}: ${finding.problem}: ${findingDescriptions[finding.problem]}`;
}

function describeMissing(missing: MissingAuditCheckpoints, file: string, fileFound: boolean): string {
  const last = `the last one anchoring record ${missing.lastAuditEventId}`;
  const found = !fileFound
    ? 'there is no file'
    : missing.lastFound
      ? `the file holds only ${missing.inFile} up to ${last}`
      : `the file holds ${missing.inFile} and not ${last}`;
  return `Checkpoints MISSING: the database counted ${missing.recorded} checkpoints written to ${file}, but ${found}. The file was deleted, emptied, cut short or replaced by an older copy: restore it from where it is kept, and treat the audit trail as unverified until it agrees.`;
}

/**
 * Read-only from start to end: opened as DATABASE_URL's role without migrating (an auditor needs
 * no owner credentials), and every read in one READ ONLY, REPEATABLE READ transaction, so the
 * chain and the checkpoints are checked against the same moment and nothing can be written.
 */
async function auditVerify(database: DatabaseHandle, config: Config): Promise<number> {
  return inTransaction(database.db, (trx) => verifyInSnapshot(trx, config), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

async function verifyInSnapshot(db: DatabaseHandle['db'], config: Config): Promise<number> {
  const { rows } = await sql<{ ready: boolean }>`
    select to_regclass('audit_events') is not null and to_regclass('audit_checkpoint_head') is not null as ready`.execute(
    db,
  );
  if (!rows[0]?.ready) {
    console.error(
      'This database has not been migrated to this version of CDMS (no audit_checkpoint_head table). audit verify never migrates: start the server of this version once (it migrates with DATABASE_OWNER_URL), then verify again.',
    );
    return 1;
  }
  const result = await verifyAuditChain(db);
  if (result.ok) {
    console.log(`Audit trail intact: ${result.count} records, every hash and link checks out.`);
  } else {
    console.error(`Audit trail BROKEN: ${result.breaks.length} problems in ${result.count} records.`);
    for (const entry of result.breaks) console.error(describeBreak(entry));
  }

  const { key, file } = config.auditCheckpoint;
  if (!key) {
    // A hash chain alone cannot tell a rewritten chain from the real one: say so.
    console.log(
      'Checkpoints NOT checked: AUDIT_CHECKPOINT_KEY is not set. Without them a chain rewritten with database rights alone would pass.',
    );
    return result.ok ? 0 : 1;
  }
  const checkpoints = await verifyAuditCheckpoints(db, { key, file });
  if (!checkpoints.fileFound && !checkpoints.missing) {
    console.log(
      `Checkpoints NOT checked: there is no checkpoint file at ${file}, and the database counted none written.`,
    );
  } else if (checkpoints.findings.length === 0 && !checkpoints.missing) {
    console.log(
      `Checkpoints agree: ${checkpoints.checked} signed checkpoints in ${file} match the database.`,
    );
  } else if (checkpoints.findings.length > 0) {
    console.error(
      `Checkpoints DISAGREE: ${checkpoints.findings.length} problems in ${checkpoints.checked} checkpoints of ${file}.`,
    );
    for (const finding of checkpoints.findings) console.error(describeFinding(finding));
  }
  if (checkpoints.missing) console.error(describeMissing(checkpoints.missing, file, checkpoints.fileFound));
  return result.ok && checkpoints.ok ? 0 : 1;
}

async function auditCheckpoint(database: DatabaseHandle, config: Config): Promise<number> {
  const { key, file } = config.auditCheckpoint;
  if (!key) {
    console.error('audit checkpoint needs AUDIT_CHECKPOINT_KEY (at least 32 characters).');
    return 2;
  }
  const checkpoint = await writeAuditCheckpoint(database.db, { key, file });
  if (!checkpoint) {
    console.log('The audit trail is empty: nothing to anchor.');
    return 0;
  }
  console.log(
    `Checkpoint written to ${file}: record ${checkpoint.auditEventId}, ${checkpoint.recordCount} records, hash ${checkpoint.hash}.`,
  );
  return 0;
}

async function generateRandomization(database: DatabaseHandle, args: string[]): Promise<number> {
  const studyCode = option(args, 'study');
  const perSite = Number(option(args, 'per-site'));
  const seed = option(args, 'seed');
  const siteNumber = option(args, 'site');
  if (!studyCode || !seed || !Number.isInteger(perSite) || perSite < 1 || perSite > 999) {
    console.error(`randomization generate needs --study, --per-site (1–999) and --seed.\n${usage}`);
    return 2;
  }
  const study = await database.db
    .selectFrom('studies')
    .select('id')
    .where('code', '=', studyCode)
    .executeTakeFirst();
  if (!study) {
    console.error(`No study with the code ${studyCode}.`);
    return 1;
  }
  let siteIds: number[] | undefined;
  if (siteNumber) {
    const site = await database.db
      .selectFrom('sites')
      .select('id')
      .where('study_id', '=', study.id)
      .where('institution_number', '=', siteNumber.padStart(2, '0'))
      .executeTakeFirst();
    if (!site) {
      console.error(`Study ${studyCode} has no site with the institution number ${siteNumber}.`);
      return 1;
    }
    siteIds = [site.id];
  }
  try {
    await generateRandomizationLists(database.db, systemActor('cli'), study.id, { perSite, seed, siteIds });
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`${error.code}: ${errorMessage(error.code, 'en', error.params)}`);
      return 1;
    }
    throw error;
  }
  const status = await randomizationStatus(database.db, study.id);
  for (const site of status.sites) {
    console.log(`  ${site.institutionNumber} ${site.siteCode}: ${site.total} slots, ${site.used} used`);
  }
  console.log(
    `Allocation lists generated for ${studyCode} (${perSite} per site). Keep the seed confidential.`,
  );
  return 0;
}

async function rebuildReadModelCommand(database: DatabaseHandle): Promise<number> {
  const started = performance.now();
  const result = await rebuildReadModel(database.db);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Read model rebuilt from the raw data: ${result.subjects} subjects in ${seconds} s.`);
  return 0;
}

async function exportOdmCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const study = option(args, 'study');
  const out = option(args, 'out');
  const version = option(args, 'odm') ?? '1.3.2';
  const site = option(args, 'site');
  if (!study || !out || !(ODM_VERSIONS as readonly string[]).includes(version)) {
    console.error(`export-odm needs --study and --out; --odm is 1.3.2 (default) or 2.0.\n${usage}`);
    return 2;
  }
  const started = performance.now();
  try {
    const result = await exportOdmToFile(database.db, systemActor('cli'), {
      study,
      out,
      version: version as OdmVersion,
      audit: args.includes('--audit'),
      ...(site !== undefined ? { site } : {}),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `ODM ${version} of ${result.studyCode} written to ${out}: ${result.subjects} subjects, ${result.values} values, ${result.queries} queries in ${seconds} s.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ExportScopeError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

/** The format named, or the one the file's extension says (.xlsx), else CSV in a ZIP. */
function tablesFormatOf(format: string | undefined, out: string): string {
  if (format !== undefined) return format;
  return out.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
}

async function exportTablesCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const study = option(args, 'study');
  const out = option(args, 'out');
  const labels = option(args, 'labels');
  const values = option(args, 'values');
  const site = option(args, 'site');
  const forms = option(args, 'forms');
  const format = out === undefined ? undefined : tablesFormatOf(option(args, 'format'), out);
  const formKeys = forms
    ?.split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (
    !study ||
    !out ||
    !(TABLES_FORMATS as readonly (string | undefined)[]).includes(format) ||
    (labels !== undefined && labels !== 'ko' && labels !== 'en') ||
    (values !== undefined && values !== 'current' && values !== 'entered') ||
    (formKeys !== undefined && formKeys.length === 0)
  ) {
    console.error(
      `export-tables needs --study and --out; --format is csv (a ZIP) or xlsx, --labels ko or en, --values current or entered, --forms a comma-separated list.\n${usage}`,
    );
    return 2;
  }
  const started = performance.now();
  try {
    const result = await exportTablesToFile(database.db, systemActor('cli'), {
      study,
      out,
      format: format as TablesFormat,
      labels: labels === 'ko' || labels === 'en' ? labels : null,
      ...(values === 'current' || values === 'entered' ? { valuesAsOf: values } : {}),
      ...(site !== undefined ? { site } : {}),
      ...(formKeys !== undefined ? { forms: formKeys } : {}),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Tables of ${result.studyCode} written to ${out} (${format}): ${result.tables} tables, ${result.values} values in ${seconds} s.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof TablesScopeError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

/**
 * The demo a first start seeds, without starting a server (so no worker sends its e-mails yet): a
 * training instance on PostgreSQL, or one seeded data directory the end-to-end tests copy per server.
 */
async function seedDemoCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const subjects = !args.includes('--without-subjects');
  const started = performance.now();
  if (!(await seedDemoData(database.db, { subjects }))) {
    console.error('The database already has users: the demo is seeded only into an empty database.');
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Demo study and accounts${subjects ? ', with the living demo,' : ''} seeded in ${seconds} s.`);
  return 0;
}

/**
 * The database as it is (never migrated: a backup is of what is there), dumped into one archive. On
 * the embedded database with a server running, only the server can dump it: it is asked to, over
 * its socket in DATA_DIR (backup/serve-backup-requests.ts), and writes the archive itself.
 */
async function backupCommand(config: Config, args: string[]): Promise<number> {
  const out = option(args, 'out');
  if (!out) {
    console.error(`backup needs --out <file>.\n${usage}`);
    return 2;
  }
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pgdata'))) {
    console.error(`There is no database in DATA_DIR (${config.dataDir}): nothing to back up.`);
    return 1;
  }
  const started = performance.now();
  let manifest: BackupManifest;
  try {
    manifest = await backupHere(config, out);
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    try {
      manifest = await requestServerBackup(config.dataDir, out);
    } catch (requestError) {
      if (!(requestError instanceof ServerBackupError)) throw requestError;
      console.error(`${error.message}\n${requestError.message}`);
      return 1;
    }
    console.log(`The server running on ${config.dataDir} (pid ${error.ownerPid}) took the backup.`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
  console.log(
    `Backup written to ${out} (${fs.statSync(out).size} bytes) in ${seconds} s: ${Object.keys(manifest.tables).length} tables, ${rows} rows, audit head ${manifest.audit.head?.lastId ?? 'none'}, ${manifest.parts.length} parts.`,
  );
  return 0;
}

async function backupHere(config: Config, out: string): Promise<BackupManifest> {
  const database = await openDatabaseAsIs(config);
  try {
    return await writeBackup(database, config, out);
  } finally {
    await database.close();
  }
}

async function restoreCommand(config: Config, args: string[]): Promise<number> {
  const archive = args[0];
  if (!archive || args.length > 1) {
    console.error(`restore needs the archive's file name.\n${usage}`);
    return 2;
  }
  const started = performance.now();
  try {
    const manifest = await restoreBackup(config, archive);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
    console.log(
      `Restored ${archive} (written ${manifest.createdAt} by CDMS ${manifest.app.version}) in ${seconds} s: ${Object.keys(manifest.tables).length} tables and ${rows} rows match the manifest. Run \`npm run cdms -- audit verify\`, then start the server.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RestoreRefusal) {
      console.error(error.text.en);
      console.error(error.text.ko);
      return 1;
    }
    if (error instanceof RestoreMismatchError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const [command, subcommand] = args;
  const config = loadConfig();
  // These two open the database their own way: as it is, or not before the archive is checked.
  if (command === 'backup') return backupCommand(config, args.slice(1));
  if (command === 'restore') return restoreCommand(config, args.slice(1));
  const run =
    command === 'create-admin'
      ? (database: DatabaseHandle) => createAdmin(database, args.slice(1))
      : command === 'audit' && subcommand === 'verify'
        ? (database: DatabaseHandle) => auditVerify(database, config)
        : command === 'audit' && subcommand === 'checkpoint'
          ? (database: DatabaseHandle) => auditCheckpoint(database, config)
          : command === 'randomization' && subcommand === 'generate'
            ? (database: DatabaseHandle) => generateRandomization(database, args.slice(2))
            : command === 'rebuild-read-model'
              ? (database: DatabaseHandle) => rebuildReadModelCommand(database)
              : command === 'export-odm'
                ? (database: DatabaseHandle) => exportOdmCommand(database, args.slice(1))
                : command === 'export-tables'
                  ? (database: DatabaseHandle) => exportTablesCommand(database, args.slice(1))
                  : command === 'seed-demo'
                    ? (database: DatabaseHandle) => seedDemoCommand(database, args.slice(1))
                    : command === 'study' && subcommand === 'create'
                      ? (database: DatabaseHandle) => createStudyCommand(database, args.slice(2))
                      : undefined;
  if (!run) {
    console.error(usage);
    return 2;
  }
  const readOnly = command === 'audit' && subcommand === 'verify';
  if (readOnly && !config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pgdata'))) {
    console.error(`There is no database in DATA_DIR (${config.dataDir}): nothing to verify.`);
    return 1;
  }
  const database = readOnly ? await openDatabaseAsIs(config) : await openDatabase(config);
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirectoryInUseError)
      console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
