import { tmPerforationStudy } from '@cdms/study';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { takeScreeningNumber } from '../../../apps/server/src/data-entry/create-subject.ts';
import { loadSubjectData } from '../../../apps/server/src/data-entry/form-data.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import { nextFreeSlot } from '../../../apps/server/src/randomization/randomization.ts';
import { signedDataHash } from '../../../apps/server/src/signature-state/signature-data.ts';
import { formatRandomizationNumber } from '../../../apps/server/src/subjects/randomization-state.ts';
import type { BenchStudy, SiteTeam } from './bench-study.ts';

// The bulk loader: a new subject as a row-for-row copy of a template subject that the commands
// entered, at another site and under another name. Only what depends on the site or the subject is
// rewritten — screening number and initials (subject row and consent form), randomization number
// and group (the site's next free slot, as randomizeSubject takes it), who entered what (the
// template site's coordinator and investigator become the new site's), the signer and the hash of
// what was signed. Copies have no audit records: the audit trail is the one thing not copied.
// The copy may go to another study than its template's, one with the same definition installed.
// clone-identity.test.ts proves the copies equal what the commands write for the same casebook.

export interface Template {
  subjectId: number;
  team: SiteTeam;
  randomized: boolean;
}

/** The template subjects: the first `count` subjects of the study, entered through the commands. */
export async function loadTemplates(
  db: Kysely<Database>,
  study: BenchStudy,
  count: number,
): Promise<Template[]> {
  const rows = await db
    .selectFrom('subjects')
    .select(['id', 'site_id'])
    .where('study_id', '=', study.studyId)
    .orderBy('id')
    .limit(count)
    .execute();
  const slots = await db
    .selectFrom('randomization_slots')
    .select('subject_id')
    .where('subject_id', 'in', rows.length > 0 ? rows.map((row) => row.id) : [-1])
    .execute();
  const randomized = new Set(slots.map((slot) => slot.subject_id));
  return rows.map((row) => {
    const team = study.teams.find((candidate) => candidate.siteId === row.site_id);
    if (!team) throw new Error(`template ${row.id} is at no bench site`);
    return { subjectId: row.id, team, randomized: randomized.has(row.id) };
  });
}

/** Initials of the n-th copy: three letters counting AAA, AAB, … (never the same as a neighbour's). */
export function copyInitials(index: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let rest = index;
  let initials = '';
  for (let position = 0; position < 3; position += 1) {
    initials = (letters[rest % 26] ?? 'A') + initials;
    rest = Math.floor(rest / 26);
  }
  return initials;
}

/** The site's coordinator and investigator in place of the template site's, in any user column. */
function mapUser(column: string, from: SiteTeam, to: SiteTeam): RawBuilder<number | null> {
  return sql<
    number | null
  >`case ${sql.ref(column)} when ${from.coordinator.id}::int then ${to.coordinator.id}::int when ${from.investigator.id}::int then ${to.investigator.id}::int else ${sql.ref(column)} end`;
}

/**
 * Copies `template` to a new subject of study `studyId` at `team`'s site with `initials`, in the
 * caller's transaction. Returns the new subject's id. The study and the site are the caller's, never
 * the template's: the many-studies measurement fills other studies (with the same definition) from
 * the templates of the bench study.
 */
export async function cloneSubject(
  trx: Transaction<Database>,
  studyId: number,
  template: Template,
  team: SiteTeam,
  initials: string,
): Promise<number> {
  const from = template.team;
  // The screening number exactly as createSubject takes it.
  const screeningNumber = await takeScreeningNumber(trx, studyId, {
    id: team.siteId,
    institutionNumber: team.institutionNumber,
  });

  const subject = await sql<{ id: number }>`
    insert into subjects (study_id, site_id, screening_number, initials, consent_date, status, created_by)
    select ${studyId}::int, ${team.siteId}::int, ${screeningNumber}, ${initials}, consent_date, status,
           ${mapUser('created_by', from, team)}
    from subjects where id = ${template.subjectId}::int
    returning id`.execute(trx);
  const subjectId = subject.rows[0]?.id;
  if (subjectId === undefined) throw new Error(`template ${template.subjectId} is gone`);

  await sql`
    insert into form_instances (subject_id, visit_key, form_key, version, has_data, status, definition_version, saved_at, first_saved_at, saved_by)
    select ${subjectId}::int, visit_key, form_key, version, has_data, status, definition_version, saved_at, first_saved_at,
           ${mapUser('saved_by', from, team)}
    from form_instances where subject_id = ${template.subjectId}::int
    order by id`.execute(trx);
  await sql`
    insert into item_values (form_instance_id, item_key, value, derived, definition_version, updated_at, updated_by)
    select copy.id, value.item_key, value.value, value.derived, value.definition_version, value.updated_at,
           ${mapUser('value.updated_by', from, team)}
    from item_values value
    join form_instances original on original.id = value.form_instance_id
    join form_instances copy on copy.subject_id = ${subjectId}::int
      and copy.visit_key = original.visit_key and copy.form_key = original.form_key
    where original.subject_id = ${template.subjectId}::int`.execute(trx);
  await setItem(trx, subjectId, 'consentScreening', 'consentScreening', 'initials', initials);
  await setItem(trx, subjectId, 'consentScreening', 'consentScreening', 'screeningNumber', screeningNumber);

  // Each query with its thread (query by query: the copy's id is needed for its messages).
  const templateQueries = await sql<{ id: number }>`
    select id from queries where subject_id = ${template.subjectId}::int order by id`.execute(trx);
  for (const query of templateQueries.rows) {
    const copy = await sql<{ id: number }>`
      insert into queries (study_id, site_id, subject_id, visit_key, form_key, item_path, check_id, kind, status, message,
                           opened_at, opened_by, closed_at, assignee, reopened, closed_over_check, last_message_at, message_count)
      select ${studyId}::int, ${team.siteId}::int, ${subjectId}::int, visit_key, form_key, item_path, check_id, kind, status,
             message, opened_at, ${mapUser('opened_by', from, team)}, closed_at, assignee, reopened, closed_over_check,
             last_message_at, message_count
      from queries where id = ${query.id}::int
      returning id`.execute(trx);
    await sql`
      insert into query_messages (query_id, kind, text, author_user_id, author_role, created_at, proposed_value)
      select ${copy.rows[0]?.id}::int, kind, text, ${mapUser('author_user_id', from, team)}, author_role, created_at,
             proposed_value
      from query_messages where query_id = ${query.id}::int
      order by id`.execute(trx);
  }

  if (template.randomized) await assignSlot(trx, studyId, template, team, subjectId);
  await copySignatures(trx, studyId, template, team, subjectId, screeningNumber);
  return subjectId;
}

async function setItem(
  trx: Transaction<Database>,
  subjectId: number,
  visitKey: string,
  formKey: string,
  itemKey: string,
  value: unknown,
): Promise<void> {
  await sql`
    update item_values set value = ${JSON.stringify(value)}::jsonb
    where item_key = ${itemKey} and form_instance_id = (
      select id from form_instances where subject_id = ${subjectId}::int and visit_key = ${visitKey} and form_key = ${formKey})`.execute(
    trx,
  );
}

/** The site's lowest free slot, as randomizeSubject takes it; the randomization form names it. */
async function assignSlot(
  trx: Transaction<Database>,
  studyId: number,
  template: Template,
  team: SiteTeam,
  subjectId: number,
): Promise<void> {
  const original = await trx
    .selectFrom('randomization_slots')
    .select(['assigned_at', 'assigned_by'])
    .where('subject_id', '=', template.subjectId)
    .executeTakeFirstOrThrow();
  const slot = await nextFreeSlot(trx, studyId, team.siteId);
  if (!slot) throw new Error(`the allocation list of site ${team.institutionNumber} is exhausted`);
  const assignedBy =
    original.assigned_by === template.team.investigator.id ? team.investigator.id : team.coordinator.id;
  await trx
    .updateTable('randomization_slots')
    .set({ subject_id: subjectId, assigned_at: original.assigned_at ?? new Date(), assigned_by: assignedBy })
    .where('id', '=', slot.id)
    .execute();
  // The bench's study is TMP-2026: its randomization form is the definition's role.
  const role = tmPerforationStudy.roles?.randomization;
  if (!role) throw new Error('the study has no randomization role');
  const { visit: visitKey, form: formKey } = role;
  const study = await trx
    .selectFrom('studies')
    .select('randomization_number_format')
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  await setItem(
    trx,
    subjectId,
    visitKey,
    formKey,
    role.number,
    formatRandomizationNumber(study.randomization_number_format, team.institutionNumber, slot.sequence),
  );
  // The group is on the form only when the study shows it; rewrite it only where the template has it.
  await sql`
    update item_values set value = ${JSON.stringify(slot.treatment_group)}::jsonb
    where item_key = ${role.group} and form_instance_id = (
      select id from form_instances where subject_id = ${subjectId}::int and visit_key = ${visitKey} and form_key = ${formKey})`.execute(
    trx,
  );
}

/** The template's signatures, signed by the new site's investigator over the copy's own data. */
async function copySignatures(
  trx: Transaction<Database>,
  studyId: number,
  template: Template,
  team: SiteTeam,
  subjectId: number,
  screeningNumber: string,
): Promise<void> {
  const signatures = await trx
    .selectFrom('signatures')
    .selectAll()
    .where('subject_id', '=', template.subjectId)
    .orderBy('id')
    .execute();
  if (signatures.length === 0) return;
  const signer = team.investigator;
  // The bench's study is TMP-2026: its signing form is the definition's role.
  const signing = tmPerforationStudy.roles?.signing;
  if (!signing?.signerName) throw new Error('the study has no signing role with the signer name');
  await setItem(trx, subjectId, signing.visit, signing.form, signing.signerName, signer.name);
  const stored = await loadSubjectData(trx, subjectId);
  const dataHash = signedDataHash(tmPerforationStudy, screeningNumber, stored.entered);
  for (const signature of signatures) {
    await trx
      .insertInto('signatures')
      .values({
        study_id: studyId,
        subject_id: subjectId,
        signed_by: signer.id,
        printed_name: signer.name,
        signer_role: signature.signer_role,
        meaning: JSON.stringify(signature.meaning),
        data_hash: dataHash,
        signed_at: signature.signed_at,
        invalidated_at: signature.invalidated_at,
        invalidated_reason: signature.invalidated_reason,
      })
      .execute();
  }
}
