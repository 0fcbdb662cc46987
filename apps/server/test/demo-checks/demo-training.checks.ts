import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { demoNewcomer, demoTrainingModules } from '../../src/seed/demo-training.ts';
import { completionMatrix } from '../../src/training/completion-matrix.ts';
import { countPendingRequired } from '../../src/training-gate/training-gate.ts';

/**
 * Issue 18 item 5 over the living demo (run by test/living-demo.test.ts): two published modules, the
 * eCRF one with a quiz; completions for some members but not all; the gate on (issue 51) with a new
 * coordinator who owes the eCRF module; and the completion matrix agrees with the completion rows
 * counted here in plain TypeScript.
 */
export function demoTrainingChecks(database: () => DatabaseHandle): void {
  async function demo() {
    const db = database().db;
    const study = await db
      .selectFrom('studies')
      .select(['id', 'training_gates_data_entry'])
      .where('code', '=', 'TMP-2026')
      .executeTakeFirstOrThrow();
    const modules = await db
      .selectFrom('training_modules')
      .selectAll()
      .where('study_id', '=', study.id)
      .orderBy('id')
      .execute();
    const completions = await db
      .selectFrom('training_completions')
      .innerJoin('users', 'users.id', 'training_completions.user_id')
      .select(['training_completions.module_id', 'training_completions.version', 'users.email', 'users.id'])
      .execute();
    return { db, study, modules, completions };
  }

  it('has the two published modules, one with a quiz, and the gate on', async () => {
    const { study, modules } = await demo();
    expect(study.training_gates_data_entry).toBe(true);
    expect(modules.map((module) => [module.title, module.state, [...module.roles].sort()])).toEqual([
      [demoTrainingModules.ecrf.title, 'published', ['CRC', 'PI', 'SI']],
      [demoTrainingModules.monitoring.title, 'published', ['CRA']],
    ]);
    expect(modules[0]?.quiz?.questions.length).toBe(3);
    expect(modules[1]?.quiz).toBeNull();
    // The eCRF course's handout: a PDF of the attachment store, owned by the module.
    const files = await database()
      .db.selectFrom('attachments')
      .select(['owner_id', 'content_type'])
      .where('owner_kind', '=', 'training_module')
      .execute();
    expect(files).toEqual([{ owner_id: modules[0]?.id, content_type: 'application/pdf' }]);
  });

  it('has completions for some site users but not all', async () => {
    const { db, study, modules, completions } = await demo();
    const done = (email: string, moduleId: number | undefined) =>
      completions.some((row) => row.email === email && row.module_id === moduleId);
    const [ecrf, monitoring] = modules;
    expect(done('pi@demo.cdms', ecrf?.id)).toBe(true);
    expect(done('si@demo.cdms', ecrf?.id)).toBe(true);
    // Every coordinator who enters the demo's data is trained; the newcomer is not.
    expect(done('crc@demo.cdms', ecrf?.id)).toBe(true);
    expect(done('crc3@demo.cdms', ecrf?.id)).toBe(true);
    expect(done(demoNewcomer.email, ecrf?.id)).toBe(false);
    expect(done('cra@demo.cdms', monitoring?.id)).toBe(true);
    const newcomer = await db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .innerJoin('membership_sites', 'membership_sites.membership_id', 'memberships.id')
      .innerJoin('sites', 'sites.id', 'membership_sites.site_id')
      .select(['users.id', 'users.name', 'memberships.role', 'sites.institution_number'])
      .where('users.email', '=', demoNewcomer.email)
      .where('memberships.study_id', '=', study.id)
      .executeTakeFirstOrThrow();
    expect(newcomer).toMatchObject({
      name: demoNewcomer.name,
      role: 'CRC',
      institution_number: demoNewcomer.site,
    });
    expect(await countPendingRequired(db, study.id, newcomer.id, ['CRC'])).toBe(1);
    const pi = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'pi@demo.cdms')
      .executeTakeFirstOrThrow();
    expect(await countPendingRequired(db, study.id, pi.id, ['PI'])).toBe(0);
  });

  it('shows in the completion matrix what the completion rows say', async () => {
    const { db, study, modules, completions } = await demo();
    const dm = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'dm@demo.cdms')
      .executeTakeFirstOrThrow();
    const principal = {
      user: { id: dm.id },
      studies: new Map([[study.id, { studyId: study.id, roles: new Map([['DM', 'all']]) }]]),
    } as unknown as Parameters<typeof completionMatrix>[1];
    const matrix = await completionMatrix(db, principal, study.id, { page: 1, size: 50 });
    const members = await db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id'])
      .distinct()
      .where('memberships.study_id', '=', study.id)
      .where('users.active', '=', true)
      .execute();
    expect(matrix.total).toBe(members.length);
    expect(matrix.modules.map((module) => module.id)).toEqual(modules.map((module) => module.id));
    const completedCells = matrix.rows.flatMap((row) =>
      row.cells.filter((cell) => cell.status === 'completed').map((cell) => `${row.userId}:${cell.moduleId}`),
    );
    const expected = completions
      .filter((row) =>
        modules.some((module) => module.id === row.module_id && module.version === row.version),
      )
      .map((row) => `${row.id}:${row.module_id}`);
    expect(completedCells.sort()).toEqual(expected.sort());
  });
}
