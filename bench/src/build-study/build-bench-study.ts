import { todayInKorea } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import { runCentralMonitoring } from '../../../apps/server/src/central-monitoring/run-central-monitoring.ts';
import { inTransaction } from '../../../apps/server/src/db/in-transaction.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import { rebuildReadModel } from '../../../apps/server/src/read-model/rebuild-read-model.ts';
import { type BenchStudy, loadBenchStudy, prepareBenchStudy, type SiteTeam } from './bench-study.ts';
import { Casebook, People, stepsOf, templatePlans } from './casebook-steps.ts';
import { cloneSubject, copyInitials, loadTemplates, type Template } from './clone-subjects.ts';

/** Copies per transaction: big enough to spare commits, small enough to keep locks short. */
const CLONES_PER_TRANSACTION = 25;

export interface BuildReport {
  subjects: number;
  templates: number;
  copies: number;
  /** Seconds spent on each part of this call (0 for parts an earlier size did). */
  prepareSeconds: number;
  templateSeconds: number;
  copySeconds: number;
  /** Seconds the read model's rebuild took. */
  readModelSeconds: number;
  /** Central monitoring's run over the built study (issue 50 item 6: under 10 s at 5,000 subjects). */
  monitoring: { seconds: number; indicators: number; signals: number };
}

export interface BuildInput {
  subjects: number;
  siteCount: number;
  /** Allocation slots per site: enough for the largest size this database will grow to. */
  slotsPerSite: number;
  log?: (message: string) => void;
}

/** Slots per site for a study of `subjects`: about two thirds get randomized, with room to spare. */
export function slotsFor(subjects: number, siteCount: number): number {
  return Math.ceil(subjects / siteCount) + 50;
}

/**
 * Grows the bench study to `subjects` subjects: on an empty database the study, sites, accounts and
 * the template subjects through the commands first; then copies of the templates (bulk loader),
 * spread round-robin over the sites, until the count is reached. A database built for a smaller
 * size is grown, not rebuilt.
 */
export async function buildBenchStudy(db: Kysely<Database>, input: BuildInput): Promise<BuildReport> {
  const log = input.log ?? (() => {});
  const seconds = (since: number) => (performance.now() - since) / 1000;
  let started = performance.now();
  const empty = !(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
  let study: BenchStudy;
  let prepareSeconds = 0;
  let templateSeconds = 0;
  if (empty) {
    study = await prepareBenchStudy(db, { siteCount: input.siteCount, slotsPerSite: input.slotsPerSite });
    prepareSeconds = seconds(started);
    started = performance.now();
    log(`  ${templatePlans.length} template subjects through the commands…`);
    await enterTemplates(db, study);
    templateSeconds = seconds(started);
  } else {
    study = await loadBenchStudy(db);
  }

  started = performance.now();
  const templates = await loadTemplates(db, study, templatePlans.length);
  const existing = await countSubjects(db, study.studyId);
  const copies = Math.max(0, input.subjects - existing);
  if (copies > 0) log(`  ${copies} copies of the templates (bulk loader)…`);
  await copyTemplates(db, {
    studyId: study.studyId,
    templates,
    teams: study.teams,
    firstCopy: existing - templates.length,
    copies,
  });
  const copySeconds = seconds(started);
  // The bulk loader writes around the commands, which keep the read model current: rebuild it.
  // Statistics first, as autovacuum would have taken them during such a load on a live database:
  // without them the rebuild's reads are planned for the tables' size before the copies (a fresh
  // 5,000-subject study rebuilt in ~550 s instead of ~20 s).
  started = performance.now();
  await sql`analyze`.execute(db);
  await rebuildReadModel(db);
  const readModelSeconds = seconds(started);
  // What autovacuum does on a live database after such growth (its insert threshold triggers both):
  // fresh statistics, without which the planner still believes the tables are small and picks
  // scans, and the visibility map, without which counts cannot use index-only scans.
  await sql`vacuum analyze`.execute(db);
  // Central monitoring's run, as the server's background job does it (the same function): its time
  // is the figure, and the monitoring reads then read a stored run.
  const monitoring = await runCentralMonitoring(db, study.studyId);
  return {
    subjects: await countSubjects(db, study.studyId),
    templates: templates.length,
    copies,
    prepareSeconds,
    templateSeconds,
    copySeconds,
    readModelSeconds,
    monitoring,
  };
}

/**
 * `copies` copies of the templates into study `studyId` (bulk loader): the n-th copy (counting from
 * `firstCopy`, so that a grown study goes on where it stopped) is template n mod templates at site
 * n mod sites, with the n-th initials.
 */
export async function copyTemplates(
  db: Kysely<Database>,
  input: { studyId: number; templates: Template[]; teams: SiteTeam[]; firstCopy: number; copies: number },
): Promise<void> {
  const { templates, teams } = input;
  for (let done = 0; done < input.copies; ) {
    const batch = Math.min(CLONES_PER_TRANSACTION, input.copies - done);
    await inTransaction(db, async (trx) => {
      for (let offset = 0; offset < batch; offset += 1) {
        const index = input.firstCopy + done + offset;
        const template = templates[index % templates.length];
        const team = teams[index % teams.length];
        if (!template || !team) throw new Error('no templates or no sites');
        await cloneSubject(trx, input.studyId, template, team, copyInitials(index));
      }
    });
    done += batch;
  }
}

export async function countSubjects(db: Kysely<Database>, studyId: number): Promise<number> {
  const row = await db
    .selectFrom('subjects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('study_id', '=', studyId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The template plans at sites 01–03 through the commands, day by day in calendar order as the demo
 * seed enters them (so screening and randomization numbers follow the dates).
 */
export async function enterTemplates(db: Kysely<Database>, study: BenchStudy): Promise<void> {
  const people = new People(db);
  const casebooks = templatePlans.map((plan) => {
    const team = study.teams.find((candidate) => candidate.institutionNumber === plan.site);
    if (!team) throw new Error(`no bench site ${plan.site}`);
    return new Casebook(db, people, study.studyId, team);
  });
  const today = todayInKorea();
  const timeline = templatePlans
    .flatMap((plan, subject) => stepsOf(plan).map((step, order) => ({ step, subject, order })))
    .sort((a, b) => a.step.date.localeCompare(b.step.date) || a.subject - b.subject || a.order - b.order);
  if (timeline.some((entry) => entry.step.date > today)) throw new Error('a template step after today');
  for (const { step, subject } of timeline) await casebooks[subject]?.perform(step);
}
