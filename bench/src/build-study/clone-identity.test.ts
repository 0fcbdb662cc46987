import { cp } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../apps/server/src/db/database.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import {
  type BenchDatabase,
  createBenchDatabase,
  dropBenchDatabase,
  openBenchDatabase,
} from '../bench-database.ts';
import { loadBenchStudy } from './bench-study.ts';
import { buildBenchStudy } from './build-bench-study.ts';
import { Casebook, People, stepsOf, templatePlans } from './casebook-steps.ts';
import { copyInitials, loadTemplates } from './clone-subjects.ts';

// The bulk loader's promise: a copy is row for row what the commands write for the same casebook at
// the same site. One small study is built both ways — copies by the bulk loader, and the same copies
// entered step by step through createSubject, saveForm, randomizeSubject and signCasebook — and every
// table a subject's data live in is compared, ids and timestamps aside (users by email, subjects by
// their order). One copy of every template, spread over every site.

const SITE_COUNT = 20;
const SLOTS_PER_SITE = 10;
const SUBJECTS = templatePlans.length * 2;

const created: BenchDatabase[] = [];
const opened: DatabaseHandle[] = [];
async function open(database: BenchDatabase): Promise<Kysely<Database>> {
  const handle = await openBenchDatabase(database);
  opened.push(handle);
  return handle.db;
}
afterAll(async () => {
  for (const handle of opened) await handle.close();
  for (const database of created) await dropBenchDatabase(database, '');
});

/**
 * The study with its 31 templates entered through the commands, in two databases: built once and
 * its data directory copied (entering the templates is most of the test's time, and both sides
 * start from the same rows either way).
 */
async function twoDatabasesWithTemplates(): Promise<[BenchDatabase, BenchDatabase]> {
  const first = await createBenchDatabase('pglite', '', 'identity-bulk');
  created.push(first);
  const handle = await openBenchDatabase(first);
  const report = await buildBenchStudy(handle.db, {
    subjects: templatePlans.length,
    siteCount: SITE_COUNT,
    slotsPerSite: SLOTS_PER_SITE,
  });
  expect(report.templates).toBe(templatePlans.length);
  await handle.close();
  const second = await createBenchDatabase('pglite', '', 'identity-commands');
  created.push(second);
  await cp(first.where, second.where, { recursive: true });
  return [first, second];
}

/** The copies through the commands, in the order and at the sites the bulk loader gives them. */
async function copyThroughCommands(db: Kysely<Database>): Promise<void> {
  const study = await loadBenchStudy(db);
  const templates = await loadTemplates(db, study, templatePlans.length);
  const people = new People(db);
  for (let index = 0; index < SUBJECTS - templates.length; index += 1) {
    const template = templates[index % templates.length];
    const team = study.teams[index % study.teams.length];
    if (!template || !team) throw new Error('no template or no site');
    const subject = await db
      .selectFrom('subjects')
      .select('initials')
      .where('id', '=', template.subjectId)
      .executeTakeFirstOrThrow();
    const plan = templatePlans.find(
      (candidate) =>
        candidate.initials === subject.initials && candidate.site === template.team.institutionNumber,
    );
    if (!plan) throw new Error(`no plan for template ${subject.initials}`);
    const casebook = new Casebook(db, people, study.studyId, team);
    for (const step of stepsOf(plan, copyInitials(index))) await casebook.perform(step);
  }
}

/** Every row of a subject's data, with ids replaced by what they stand for. */
async function studyRows(db: Kysely<Database>) {
  const users = new Map(
    (await db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [u.id, u.email]),
  );
  const sites = new Map(
    (await db.selectFrom('sites').select(['id', 'institution_number']).execute()).map((s) => [
      s.id,
      s.institution_number,
    ]),
  );
  const subjects = await db.selectFrom('subjects').selectAll().orderBy('id').execute();
  const subjectOrder = new Map(subjects.map((subject, index) => [subject.id, index]));
  const user = (id: number | null) => (id === null ? null : users.get(id));
  const subjectOf = (id: number | null) => (id === null ? null : subjectOrder.get(id));
  const instances = await db.selectFrom('form_instances').selectAll().execute();
  const instanceOf = new Map(
    instances.map((row) => [row.id, `${subjectOf(row.subject_id)}.${row.visit_key}.${row.form_key}`]),
  );
  const sorted = <T>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    subjects: subjects.map((row) => ({
      site: sites.get(row.site_id),
      screeningNumber: row.screening_number,
      initials: row.initials,
      consentDate: row.consent_date,
      status: row.status,
      createdBy: user(row.created_by),
      deleted: row.deleted_at !== null,
    })),
    counters: sorted(
      (await db.selectFrom('subject_number_counters').selectAll().execute()).map((row) => ({
        site: sites.get(row.site_id),
        last: row.last_number,
      })),
    ),
    formInstances: sorted(
      instances.map((row) => ({
        form: instanceOf.get(row.id),
        version: row.version,
        hasData: row.has_data,
        status: row.status,
        definitionVersion: row.definition_version,
        savedBy: user(row.saved_by),
      })),
    ),
    itemValues: sorted(
      (await db.selectFrom('item_values').selectAll().execute()).map((row) => ({
        form: instanceOf.get(row.form_instance_id),
        item: row.item_key,
        value: row.value,
        derived: row.derived,
        definitionVersion: row.definition_version,
        updatedBy: user(row.updated_by),
      })),
    ),
    queries: sorted(
      (await db.selectFrom('queries').selectAll().execute()).map((row) => ({
        subject: subjectOf(row.subject_id),
        site: sites.get(row.site_id),
        form: `${row.visit_key}.${row.form_key}`,
        itemPath: row.item_path,
        checkId: row.check_id,
        kind: row.kind,
        status: row.status,
        message: row.message,
        openedBy: user(row.opened_by),
        closed: row.closed_at !== null,
        assignee: row.assignee,
        reopened: row.reopened,
        closedOverCheck: row.closed_over_check,
        messageCount: row.message_count,
      })),
    ),
    queryMessages: sorted(
      (
        await db
          .selectFrom('query_messages')
          .innerJoin('queries', 'queries.id', 'query_messages.query_id')
          .select([
            'queries.subject_id',
            'queries.visit_key',
            'queries.form_key',
            'queries.item_path',
            'queries.check_id',
            'query_messages.kind',
            'query_messages.text',
            'query_messages.author_user_id',
            'query_messages.author_role',
            'query_messages.proposed_value',
          ])
          .execute()
      ).map((row) => ({
        subject: subjectOf(row.subject_id),
        query: `${row.visit_key}.${row.form_key}.${row.item_path}.${row.check_id}`,
        kind: row.kind,
        text: row.text,
        author: user(row.author_user_id),
        role: row.author_role,
        proposedValue: row.proposed_value,
      })),
    ),
    signatures: sorted(
      (await db.selectFrom('signatures').selectAll().execute()).map((row) => ({
        subject: subjectOf(row.subject_id),
        signedBy: user(row.signed_by),
        printedName: row.printed_name,
        role: row.signer_role,
        meaning: row.meaning,
        dataHash: row.data_hash,
        invalidated: row.invalidated_at !== null,
        invalidatedReason: row.invalidated_reason,
      })),
    ),
    randomizationSlots: sorted(
      (await db.selectFrom('randomization_slots').selectAll().execute()).map((row) => ({
        site: sites.get(row.site_id),
        sequence: row.sequence,
        group: row.treatment_group,
        block: row.block_number,
        source: row.source,
        subject: subjectOf(row.subject_id),
        assigned: row.assigned_at !== null,
        assignedBy: user(row.assigned_by),
      })),
    ),
    comments: (await db.selectFrom('form_comments').select('id').execute()).length,
  };
}

describe('the bulk loader', () => {
  it('writes the rows the commands write for the same casebooks', async () => {
    const [bulkDatabase, commandsDatabase] = await twoDatabasesWithTemplates();
    const bulk = await open(bulkDatabase);
    const report = await buildBenchStudy(bulk, {
      subjects: SUBJECTS,
      siteCount: SITE_COUNT,
      slotsPerSite: SLOTS_PER_SITE,
    });
    expect(report.copies).toBe(templatePlans.length);
    const commands = await open(commandsDatabase);
    await copyThroughCommands(commands);

    const fromBulk = await studyRows(bulk);
    const fromCommands = await studyRows(commands);
    expect(fromBulk.subjects).toHaveLength(SUBJECTS);
    // Something of everything, so that equality says something.
    expect(fromBulk.signatures.length).toBeGreaterThan(3);
    expect(fromBulk.queries.length).toBeGreaterThan(10);
    expect(fromBulk.queryMessages.length).toBeGreaterThan(fromBulk.queries.length);
    expect(
      fromBulk.randomizationSlots.filter((slot) => !slot.includes('"subject":null')).length,
    ).toBeGreaterThan(20);
    for (const table of Object.keys(fromCommands) as (keyof typeof fromCommands)[]) {
      expect(fromBulk[table], table).toEqual(fromCommands[table]);
    }
  });
});
