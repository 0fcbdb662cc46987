import type { GroupVisibleRole } from '@cdms/contract';
import { groupVisibleRoleChoices } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { everyReaderMayKnow } from '../blinding/may-know-group.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The study's blinding setting (product.md: "who may see the group is a study setting"; issue 51):
 * the roles that may see a subject's assigned group. Audited as a setting change with before and
 * after, under the study's row lock; an unchanged list writes nothing. `show_randomization_group`
 * follows it: on when every reader of subjects may know groups (the group is then filled into the
 * randomization form, `blinding/may-know-group.ts`).
 *
 * Groups already filled into forms cannot be taken back out of everything that was read and exported:
 * once a study wrote them into forms and randomized anyone, narrowing the list is refused (409
 * `groups_in_forms`) — a study is not blinded again after the fact.
 */
export async function updateRandomizationSettings(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  settings: { groupVisibleRoles: readonly GroupVisibleRole[] },
): Promise<void> {
  const wanted = groupVisibleRoleChoices.filter((role) => settings.groupVisibleRoles.includes(role));
  await inTransaction(db, async (trx) => {
    const study = await trx
      .selectFrom('studies')
      .select(['group_visible_roles', 'show_randomization_group'])
      .where('id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!study) throw new AppError(404, 'not_found');
    const before = groupVisibleRoleChoices.filter((role) => study.group_visible_roles.includes(role));
    if (before.join() === wanted.join()) return;
    const show = everyReaderMayKnow(wanted);
    if (study.show_randomization_group && !show) {
      const randomized = await trx
        .selectFrom('randomization_slots')
        .select('id')
        .where('study_id', '=', studyId)
        .where('subject_id', 'is not', null)
        .limit(1)
        .executeTakeFirst();
      if (randomized) throw new AppError(409, 'groups_in_forms');
    }
    await updateRowAudited(
      trx,
      actor,
      {
        table: 'studies',
        id: studyId,
        set: { group_visible_roles: wanted, show_randomization_group: show },
      },
      {
        type: 'randomization.settings_changed',
        studyId,
        before: { groupVisibleRoles: before, showGroup: study.show_randomization_group },
        after: { groupVisibleRoles: wanted, showGroup: show },
      },
    );
  });
}
