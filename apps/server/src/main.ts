import { buildApp, serverLoggerOptions } from './app.ts';
import { type CheckpointSchedule, scheduleAuditCheckpoints } from './audit/schedule-audit-checkpoints.ts';
import { type BackupSchedule, scheduleBackups } from './backup/schedule-backups.ts';
import { type BackupRequestServer, serveBackupRequests } from './backup/serve-backup-requests.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirectoryInUseError } from './db/data-dir-lock.ts';
import { holdStartupLock } from './db/hold-startup-lock.ts';
import { openDatabase } from './open-database.ts';

/** `npm start`: parse configuration, open and migrate the database, serve until told to stop. */
async function main(): Promise<void> {
  const config = loadConfig();
  // The product's first start gets the living demo: subjects at every stage, not just accounts.
  // Imported only when the demo is seeded: its photos and PDFs load sharp and pdfkit, which a
  // server otherwise loads at its first photo or PDF (over 10 MB of memory it would keep).
  const demo = config.seedDemo ? await import('./seed/demo-seed.ts') : undefined;
  // Processes started together on one PostgreSQL database migrate and seed one after another.
  const { database, seeded } = await holdStartupLock(config.databaseUrl, async () => {
    const opened = await openDatabase(config);
    return {
      database: opened,
      seeded: demo ? await demo.seedDemoData(opened.db, { subjects: true }) : false,
    };
  });
  const app = await buildApp({ config, database }, { logger: serverLoggerOptions(config.logLevel) });

  const { key, file, intervalSeconds } = config.auditCheckpoint;
  let checkpoints: CheckpointSchedule | undefined;
  if (key && intervalSeconds > 0) {
    checkpoints = scheduleAuditCheckpoints(database.db, { key, file }, intervalSeconds * 1000, {
      info: (message) => app.log.info(message),
      error: (error, message) => app.log.error({ err: error }, message),
    });
  } else if (!key && config.env === 'production') {
    app.log.warn(
      'AUDIT_CHECKPOINT_KEY is not set: the audit chain is not anchored outside the database, so a chain rewritten with database rights would verify as intact (README "Audit trail integrity")',
    );
  }
  let backups: BackupSchedule | undefined;
  if (config.backup.intervalHours > 0) {
    backups = scheduleBackups(database, config, {
      info: (message) => app.log.info(message),
      error: (error, message) => app.log.error({ err: error }, message),
    });
  } else if (config.env === 'production') {
    app.log.warn(
      'BACKUP_INTERVAL_HOURS is not set: the server takes no scheduled backups (docs/OPERATIONS.md "Backup and restore")',
    );
  }
  // The embedded database can be dumped only by this process: `npm run cdms -- backup` asks it.
  let backupRequests: BackupRequestServer | undefined;
  if (database.kind === 'pglite') {
    backupRequests = await serveBackupRequests(database, config, {
      info: (message) => app.log.info(message),
      error: (error, message) => app.log.error({ err: error }, message),
    }).catch((error: unknown) => {
      app.log.warn(
        { err: error },
        'backup requests cannot be taken: `npm run cdms -- backup` needs the server stopped',
      );
      return undefined;
    });
  }
  if (database.kind === 'postgres' && !config.databaseOwnerUrl && config.env === 'production') {
    app.log.warn(
      'DATABASE_OWNER_URL is not set: the server runs as the role that owns the audit table and could disable its triggers (README "Audit trail integrity")',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await checkpoints?.stop();
    await backups?.stop();
    await backupRequests?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  console.log(`CDMS is running at http://localhost:${port} (database: ${where})`);
  if (demo) {
    console.log(
      seeded ? 'Demo study, accounts and subjects created.' : 'Demo accounts (created on first start):',
    );
    for (const account of demo.demoAccounts) console.log(`  ${account.role.padEnd(5)} ${account.email}`);
    console.log(`  password for every demo account: ${demo.DEMO_PASSWORD}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirectoryInUseError) {
    console.error(error.message);
  } else {
    console.error('CDMS could not start:', error);
  }
  process.exit(1);
});
