import type { RandomizationStatus, RandomizeResponse } from '@cdms/contract';
import { todayInKorea } from '@cdms/contract';
import { evaluateSubject, findFormEvaluation } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { groupVisibleRolesOf, mayKnowAllGroups } from '../blinding/may-know-group.ts';
import { loadSubjectData, writeForm } from '../data-entry/form-data.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import {
  awaitsRandomization,
  formatRandomizationNumber,
  isRandomized,
} from '../subjects/randomization-state.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { permutedBlockSequence, type TreatmentGroup } from './permuted-blocks.ts';

interface SlotInput {
  siteId: number;
  sequence: number;
  group: TreatmentGroup;
  block: number;
}

async function insertList(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  slots: SlotInput[],
  source: string,
): Promise<void> {
  const siteIds = [...new Set(slots.map((slot) => slot.siteId))];
  await inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('randomization_slots')
      .innerJoin('sites', 'sites.id', 'randomization_slots.site_id')
      .select('sites.code')
      .distinct()
      .where('randomization_slots.study_id', '=', studyId)
      .where('randomization_slots.site_id', 'in', siteIds)
      .execute();
    if (existing.length > 0) {
      throw new AppError(409, 'randomization_list_exists', {
        sites: existing.map((row) => row.code).join(', '),
      });
    }
    for (let start = 0; start < slots.length; start += 500) {
      await trx
        .insertInto('randomization_slots')
        .values(
          slots.slice(start, start + 500).map((slot) => ({
            study_id: studyId,
            site_id: slot.siteId,
            sequence: slot.sequence,
            treatment_group: slot.group,
            block_number: slot.block,
            source,
          })),
        )
        .execute();
    }
    // The audit record says what was made, never the allocation itself (it stays concealed).
    await recordAudit(trx, actor, {
      type: 'randomization.list_created',
      entityType: 'randomization',
      entityId: studyId,
      studyId,
      after: {
        source: source.startsWith('generated') ? 'generated' : 'import',
        slotsPerSite: Object.fromEntries(
          siteIds.map((siteId) => [siteId, slots.filter((slot) => slot.siteId === siteId).length]),
        ),
      },
    });
  });
}

/**
 * A study created with randomization off has no lists and randomizes no one, whatever its design
 * declares (issue 45 item 1): its members' abilities leave randomization out (`principal.ts`).
 */
async function refuseWhenRandomizationOff(db: Kysely<Database>, studyId: number): Promise<void> {
  const study = await db
    .selectFrom('studies')
    .select('randomization_enabled')
    .where('id', '=', studyId)
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  if (!study.randomization_enabled) throw new AppError(409, 'randomization_off');
}

/** Generates permuted-block lists (2 and 4, 1:1) for the study's sites that have none yet. */
export async function generateRandomizationLists(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  input: { perSite: number; seed: string; siteIds?: number[] | undefined },
): Promise<void> {
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code', 'randomization_enabled'])
    .where('id', '=', studyId)
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  if (!study.randomization_enabled) throw new AppError(409, 'randomization_off');
  let sitesQuery = db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', studyId);
  if (input.siteIds)
    sitesQuery = sitesQuery.where('id', 'in', input.siteIds.length > 0 ? input.siteIds : [-1]);
  const sites = await sitesQuery.orderBy('institution_number').execute();
  if (sites.length === 0 || (input.siteIds && sites.length !== new Set(input.siteIds).size))
    throw new AppError(422, 'unknown_site');
  const slots = sites.flatMap((site) =>
    permutedBlockSequence(input.perSite, `${input.seed}:${study.code}:${site.institution_number}`).map(
      (slot) => ({
        siteId: site.id,
        sequence: slot.sequence,
        group: slot.group,
        block: slot.block,
      }),
    ),
  );
  await insertList(db, actor, studyId, slots, `generated:${input.seed.length}`);
}

/** Imports a list made elsewhere: CSV `institution,sequence,group`, sequences 1..n without gaps per site. */
export async function importRandomizationList(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  csv: string,
): Promise<number> {
  await refuseWhenRandomizationOff(db, studyId);
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', studyId)
    .execute();
  const siteByNumber = new Map(sites.map((site) => [site.institution_number, site.id]));
  const lines = csv
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const header = lines.shift()?.toLowerCase().replace(/\s/g, '');
  const problem = (ko: string, en: string) =>
    new AppError(422, 'randomization_import_invalid', { problem: { ko, en } });
  if (header !== 'institution,sequence,group')
    throw problem(
      '첫 줄은 "institution,sequence,group"이어야 합니다',
      'the header must be "institution,sequence,group"',
    );
  const slots: SlotInput[] = [];
  for (const [index, line] of lines.entries()) {
    const [institution = '', sequenceText = '', groupText = ''] = line.split(',').map((cell) => cell.trim());
    const siteId = siteByNumber.get(institution.padStart(2, '0'));
    const sequence = Number(sequenceText);
    const group = groupText.toLowerCase();
    const row = index + 2;
    if (!siteId)
      throw problem(
        `${row}행: 알 수 없는 기관 번호 ${institution}`,
        `line ${row}: unknown institution ${institution}`,
      );
    if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999)
      throw problem(
        `${row}행: 배정 번호는 1–999의 정수여야 합니다`,
        `line ${row}: the sequence must be a whole number 1–999`,
      );
    if (group !== 'treatment' && group !== 'control')
      throw problem(
        `${row}행: 배정군은 treatment 또는 control이어야 합니다`,
        `line ${row}: the group must be treatment or control`,
      );
    slots.push({ siteId, sequence, group, block: 0 });
  }
  if (slots.length === 0) throw problem('배정 행이 없습니다', 'there are no rows');
  for (const siteId of new Set(slots.map((slot) => slot.siteId))) {
    const sequences = slots
      .filter((slot) => slot.siteId === siteId)
      .map((slot) => slot.sequence)
      .sort((a, b) => a - b);
    if (sequences.some((sequence, index) => sequence !== index + 1))
      throw problem(
        '기관마다 배정 번호가 1, 2, 3… 빠짐없이 이어져야 합니다',
        'sequences must run 1, 2, 3… without gaps per institution',
      );
  }
  await insertList(db, actor, studyId, slots, 'import');
  return slots.length;
}

export async function randomizationStatus(
  db: Kysely<Database>,
  studyId: number,
): Promise<RandomizationStatus> {
  const rows = await db
    .selectFrom('sites')
    .leftJoin('randomization_slots', 'randomization_slots.site_id', 'sites.id')
    .select([
      'sites.id',
      'sites.code',
      'sites.institution_number',
      (eb) => eb.fn.count<number>('randomization_slots.id').as('total'),
      (eb) => eb.fn.count<number>('randomization_slots.subject_id').as('used'),
    ])
    .where('sites.study_id', '=', studyId)
    .groupBy(['sites.id', 'sites.code', 'sites.institution_number'])
    .orderBy('sites.institution_number')
    .execute();
  const study = await db
    .selectFrom('studies')
    .select('show_randomization_group')
    .where('id', '=', studyId)
    .executeTakeFirst();
  return {
    showGroup: study?.show_randomization_group ?? false,
    groupVisibleRoles: await groupVisibleRolesOf(db, studyId),
    sites: rows.map((row) => ({
      siteId: row.id,
      siteCode: row.code,
      institutionNumber: row.institution_number,
      total: Number(row.total),
      used: Number(row.used),
      remaining: Number(row.total) - Number(row.used),
    })),
  };
}

/**
 * The site's next unassigned slot in list order, row-locked in the caller's transaction until it
 * is assigned: concurrent randomizations at one site take the slots one after the other.
 */
export async function nextFreeSlot(trx: Transaction<Database>, studyId: number, siteId: number) {
  return trx
    .selectFrom('randomization_slots')
    .select(['id', 'sequence', 'treatment_group'])
    .where('study_id', '=', studyId)
    .where('site_id', '=', siteId)
    .where('subject_id', 'is', null)
    .orderBy('sequence')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Randomizes a subject: only a Screening subject the study's rule says is eligible (the
 * `randomization` role's derived item), once. Takes the site's lowest free slot under a row lock
 * (concurrent requests on any number of server processes queue on that lock), marks it used, and
 * fills the role's form — one transaction, audited. The subject becomes Ongoing through the study's
 * status rules. A study without the role randomizes no one (422).
 */
export async function randomizeSubject(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  subjectId: number,
  options: { assignedAt?: Date } = {},
): Promise<RandomizeResponse> {
  // The demo seed tells its story counted back from today, so it names the assignment's time (as it
  // names a registration's); the API always assigns now.
  if (options.assignedAt && options.assignedAt.getTime() > Date.now())
    throw new Error(`an assignment at ${options.assignedAt.toISOString()} is in the future`);
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(404, 'not_found');
  const role = current.definition.roles?.randomization;
  return inTransaction(db, async (trx: Transaction<Database>) => {
    const subject = await findSubjectInScope(trx, principal, studyId, subjectId, 'subject.randomize');
    await trx.selectFrom('subjects').select('id').where('id', '=', subject.id).forUpdate().execute();
    const study = await trx
      .selectFrom('studies')
      .select(['show_randomization_group', 'randomization_enabled', 'randomization_number_format'])
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow();
    if (!study.randomization_enabled) throw new AppError(409, 'randomization_off');
    if (await isRandomized(trx, subject.id)) throw new AppError(409, 'already_randomized');
    if (!role) throw new AppError(422, 'not_eligible_for_randomization');
    const form = { visitKey: role.visit, formKey: role.form };
    await refuseWriteUnderHolds(trx, 'subject.randomize', subjectTarget(subject, form));
    const stored = await loadSubjectData(trx, subject.id);
    // Eligibility is the study's own rule: the role's derived item.
    const evaluation = evaluateSubject(current.definition, stored.entered, { today: todayInKorea() });
    const eligible =
      findFormEvaluation(evaluation, form.visitKey, form.formKey)?.derived[role.eligible] === 'Y';
    const statusNow = await trx
      .selectFrom('subjects')
      .select('status')
      .where('id', '=', subject.id)
      .executeTakeFirstOrThrow();
    if (!eligible || !awaitsRandomization(statusNow.status, false))
      throw new AppError(422, 'not_eligible_for_randomization');

    const slot = await nextFreeSlot(trx, studyId, subject.site_id);
    if (!slot) throw new AppError(409, 'randomization_list_exhausted');
    const assignedAt = options.assignedAt ?? new Date();
    const updated = await trx
      .updateTable('randomization_slots')
      .set({ subject_id: subject.id, assigned_at: assignedAt, assigned_by: principal.user.id })
      .where('id', '=', slot.id)
      .where('subject_id', 'is', null)
      .executeTakeFirst();
    // The row lock makes this impossible; the check keeps a double assignment from ever committing.
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError(409, 'randomization_list_exhausted');

    const randomizationNumber = formatRandomizationNumber(
      study.randomization_number_format,
      subject.institution_number,
      slot.sequence,
    );
    const assignmentDate = todayInKorea(assignedAt);
    const formInstance = stored.instances.get(`${form.visitKey}.${form.formKey}`);
    await writeForm(trx, {
      subject,
      definition: current.definition,
      definitionVersion: current.version,
      visitKey: form.visitKey,
      formKey: form.formKey,
      values: {
        [role.assignmentDate]: assignmentDate,
        [role.number]: randomizationNumber,
        ...(study.show_randomization_group ? { [role.group]: slot.treatment_group } : {}),
      },
      expectedVersion: formInstance?.version ?? 0,
      reasons: {},
      actor,
      systemWrite: true,
    });
    await recordAudit(trx, actor, {
      type: 'subject.randomized',
      entityType: 'subject',
      entityId: subject.id,
      studyId,
      siteId: subject.site_id,
      subjectId: subject.id,
      // Not the group: the audit trail is read by people the study may keep blind (it stays in the
      // allocation list, `randomization_slots`, beside the subject it went to).
      after: { randomizationNumber, assignmentDate },
    });
    const group = mayKnowAllGroups(principal, studyId, await groupVisibleRolesOf(trx, studyId))
      ? slot.treatment_group
      : null;
    return { randomizationNumber, assignmentDate, group };
  });
}
