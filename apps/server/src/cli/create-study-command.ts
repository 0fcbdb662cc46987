import fs from 'node:fs';
import { createStudyRequestSchema, type NumberFormatProblem } from '@cdms/contract';
import { createStudy } from '../admin/create-study.ts';
import { systemActor } from '../audit/audit-events.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { errorMessage } from '../http/error-messages.ts';
import { AppError } from '../http/errors.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';
import { option, repeatedOption } from './command-options.ts';

export const createStudyUsage = `npm run cdms -- study create --code <code> --title-ko <title> --admin-email <email>
      [--title-en <title>] [--protocol <number>] [--sponsor <name>] [--kind drug|device|observational]
      [--description <text>] [--screening-format <format>] [--randomization on|off]
      [--randomization-format <format>] [--site <CODE>:<name>:<institution number>]...
      [--member <email>:<ROLE>[:<SITE CODE>,...]]... [--definition <file.json>]
    formats: literal text with {site} (institution number) and {seq:N} (sequence, N digits),
    e.g. S{site}-{seq:3} (the default screening format) or R{site}{seq:3} (randomization)`;

/** `CODE:name:NN` → a site; the name may itself hold colons. */
function siteOption(value: string) {
  const parts = value.split(':');
  return {
    code: parts[0],
    name: parts.slice(1, -1).join(':'),
    institutionNumber: parts.length >= 3 ? parts.at(-1) : undefined,
  };
}

/** `email:ROLE[:SITE,SITE]` → a first member. */
function memberOption(value: string) {
  const [email, role, sites] = value.split(':');
  return { email, role, siteCodes: sites ? sites.split(',') : [] };
}

/** `on`, `off` or absent (on) → the request's flag; anything else is left for the schema to refuse. */
function randomizationOption(value: string | undefined): unknown {
  if (value === undefined || value === 'on') return true;
  if (value === 'off') return false;
  return value;
}

/** The shell's words for a refused number format (the browser's are in the admin locale files). */
const numberFormatProblems: Record<NumberFormatProblem, string> = {
  number_format_invalid:
    'A format holds letters, digits, -, _, . and the placeholders {site} and {seq:N} (N from 1 to 6) only.',
  number_format_needs_site: 'A format must contain the institution number {site} once.',
  number_format_needs_seq: 'A format must contain the sequence {seq} or {seq:N} once.',
};

function issueText(message: string): string {
  return message in numberFormatProblems ? numberFormatProblems[message as NumberFormatProblem] : message;
}

/**
 * `study create`: a study in design on a production install, from the shell (issue 45 item 1), as
 * `POST /api/admin/studies` creates one, with its number formats, randomization on or off, its
 * sites and its first members. `--admin-email` names its first ADMIN (an existing account), who
 * takes it live from the browser; `--definition` uploads its design document at once,
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
    screeningNumberFormat: option(args, 'screening-format'),
    randomizationEnabled: randomizationOption(option(args, 'randomization')),
    randomizationNumberFormat: option(args, 'randomization-format'),
    sites: repeatedOption(args, 'site').map(siteOption),
    members: repeatedOption(args, 'member').map(memberOption),
  });
  const adminEmail = option(args, 'admin-email')?.trim().toLowerCase();
  if (!parsed.success || !adminEmail) {
    const problems = parsed.success
      ? []
      : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issueText(issue.message)}`);
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
    const randomization = study.randomizationEnabled
      ? `on, numbers ${study.randomizationNumberFormat}`
      : 'off';
    console.log(`Screening numbers ${study.screeningNumberFormat}; randomization ${randomization}.`);
    if (study.sites.length > 0) console.log(`Sites: ${study.sites.map((site) => site.code).join(', ')}.`);
    if (parsed.data.members.length > 0) console.log(`Further members: ${parsed.data.members.length}.`);
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
