import { spawn } from 'node:child_process';

/**
 * pg_dump and pg_restore, the PostgreSQL client tools a backup of a PostgreSQL install runs (from
 * PATH, or PG_DUMP / PG_RESTORE naming them: their major version must be the server's or newer).
 * The password of a connection URL goes to the tool in PGPASSWORD, never on its command line,
 * where any user of the machine could read it (`ps`).
 */

export class PostgresToolError extends Error {}

/** The URL without its password, and the environment that hands the password over. */
function toolConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    url: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env },
  };
}

/** Runs a tool to the end; its standard error is the message when it fails. */
function runTool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: NodeJS.ReadableStream,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr += text;
    });
    if (stdin && child.stdin) {
      // pg_restore stopping early (a failed statement) closes its end: that is its error to report.
      child.stdin.on('error', () => {});
      stdin.pipe(child.stdin);
    }
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new PostgresToolError(
          error.code === 'ENOENT'
            ? `${command} was not found: install the PostgreSQL client tools (Debian/Ubuntu: apt install postgresql-client) of the server's major version or newer, or name the program in ${command === 'pg_dump' ? 'PG_DUMP' : 'PG_RESTORE'}.`
            : `${command} could not be started: ${error.message}`,
        ),
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new PostgresToolError(`${command} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

/**
 * pg_dump of the whole database in the custom format into `file`, from the snapshot another
 * transaction exported (`pg_export_snapshot()`), so it holds exactly what that transaction sees.
 */
export async function pgDump(url: string, snapshot: string, file: string): Promise<void> {
  const connection = toolConnection(url);
  await runTool(
    process.env.PG_DUMP ?? 'pg_dump',
    ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${connection.url}`],
    connection.env,
  );
}

/**
 * pg_restore of a custom-format dump read from `dump` into the database at `url`, all or nothing
 * (one transaction, stopping at the first error). Owners and grants are left out: the restored
 * objects belong to the role restoring them (DATABASE_OWNER_URL's), and the server grants its own
 * role its rights when it starts (db/grant-app-role.ts), whatever the roles were called before.
 */
export async function pgRestore(url: string, dump: NodeJS.ReadableStream): Promise<void> {
  const connection = toolConnection(url);
  await runTool(
    process.env.PG_RESTORE ?? 'pg_restore',
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--dbname=${connection.url}`,
    ],
    connection.env,
    dump,
  );
}
