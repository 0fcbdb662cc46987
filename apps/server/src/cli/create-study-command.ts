import fs from 'node:fs';
import { createStudyRequestSchema } from '@cdms/contract';
import { createStudy } from '../admin/create-study.ts';
import { systemActor } from '../audit/audit-events.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { errorMessage } from '../http/error-messages.ts';
import { AppError } from '../http/errors.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';

export const createStudyUsage =
  'npm run cdms -- study create --code <code> --title-ko <title> --admin-email <email> [--title-en <title>] [--protocol <number>] [--sponsor <name>] [--kind drug|device|observational] [--description <text>] [--definition <file.json>]';

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * `study create`: a study in design on a production install, from the shell (issue 45 item 1), as
 * `POST /api/admin/studies` creates one. `--admin-email` names its first ADMIN (an existing
 * account), who takes it live from the browser; `--definition` uploads its design document at once,
 * through the same check as an upload (every problem printed, nothing written when one is found).
 */
export async function createStudyCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const parsed = createStudyRequestSchema.safeParse({
    code: option(args, 'code'),
    titleKo: option(args, 'title-ko'),
    titleEn: option(args, 'title-en') ?? '',
    protocolNumber: option(args, 'protocol') ?? '',
    sponsor: option(args, 'sponsor') ?? '',
    kind: option(args, 'kind') ?? 'device',
    content: option(args, 'description') ?? '',
  });
  const adminEmail = option(args, 'admin-email')?.trim().toLowerCase();
  if (!parsed.success || !adminEmail) {
    const problems = parsed.success
      ? []
      : parsed.error.issues.map((issue) => `  --${issue.path.join('.')}: ${issue.message}`);
    console.error([`study create needs valid options:`, ...problems, createStudyUsage].join('\n'));
    return 2;
  }
  const definitionFile = option(args, 'definition');
  let document: unknown;
  if (definitionFile !== undefined) {
    try {
      document = JSON.parse(fs.readFileSync(definitionFile, 'utf8'));
    } catch (error) {
      console.error(`Cannot read ${definitionFile} as JSON: ${(error as Error).message}`);
      return 2;
    }
  }
  const admin = await database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', adminEmail)
    .executeTakeFirst();
  if (!admin) {
    console.error(
      `No account has the email ${adminEmail}: create it first (create-admin, or the admin page).`,
    );
    return 1;
  }
  const actor = systemActor('cli');
  try {
    const study = await createStudy(database.db, actor, parsed.data, admin.id);
    console.log(`Created study ${study.code} (id ${study.id}), in design; first ADMIN ${adminEmail}.`);
    if (document !== undefined) {
      const published = await replaceStudyDefinition(database.db, actor, study.id, document);
      console.log(`Installed its definition version ${published.version} (sha256 ${published.contentHash}).`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(errorMessage(error.code, 'en', error.params));
    const { problems } = (error.details ?? {}) as { problems?: { path: string; message: { en: string } }[] };
    for (const problem of problems ?? []) console.error(`  ${problem.path || '/'}: ${problem.message.en}`);
    return 1;
  }
}
