import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';

/**
 * Issue 51 item 3 over the living demo (run by test/living-demo.test.ts): TMP-2026 open-label to every
 * role (groups in the forms, as the demo's pages show them), and one emergency unblinding at site 01 by
 * its PI — audited with its reason, the sponsor's desks and the site's monitor told, the group in
 * none of it.
 */
export function demoBlindingChecks(database: () => DatabaseHandle): void {
  it('has one subject at site 01 unblinded by its PI, audited and notified, the group named nowhere', async () => {
    const db = database().db;
    const study = await db
      .selectFrom('studies')
      .select(['id', 'group_visible_roles', 'show_randomization_group'])
      .where('code', '=', 'TMP-2026')
      .executeTakeFirstOrThrow();
    expect(study.show_randomization_group).toBe(true);
    expect([...study.group_visible_roles].sort()).toEqual(
      ['ADMIN', 'CODER', 'CRA', 'CRC', 'DM', 'PI', 'SAFETY', 'SI'].sort(),
    );
    const unblindings = await db
      .selectFrom('subject_unblindings as u')
      .innerJoin('sites', 'sites.id', 'u.site_id')
      .innerJoin('users', 'users.id', 'u.unblinded_by')
      .innerJoin('subjects', 'subjects.id', 'u.subject_id')
      .innerJoin('randomization_slots as slot', 'slot.subject_id', 'u.subject_id')
      .select(['sites.institution_number', 'users.email', 'u.reason', 'u.subject_id', 'subjects.status'])
      .select('slot.treatment_group')
      .where('u.study_id', '=', study.id)
      .execute();
    expect(unblindings).toHaveLength(1);
    const [unblinding] = unblindings;
    expect(unblinding).toMatchObject({ institution_number: '01', email: 'pi@demo.cdms' });
    expect(unblinding?.reason).toMatch(/[가-힣]/);

    const audit = await db
      .selectFrom('audit_events')
      .select(['reason', 'after'])
      .where('event_type', '=', 'subject.unblinded')
      .where('subject_id', '=', unblinding?.subject_id as number)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.reason).toBe(unblinding?.reason);

    const notices = await db
      .selectFrom('notifications')
      .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
      .select(['users.email', 'notifications.body'])
      .where('notifications.event_type', '=', 'blind_broken')
      .orderBy('users.email')
      .execute();
    expect(notices.map((notice) => notice.email)).toEqual([
      'cra@demo.cdms',
      'dm@demo.cdms',
      'safety@demo.cdms',
      'stat@demo.cdms',
    ]);
    for (const text of [...notices.map((notice) => notice.body), JSON.stringify(audit)])
      expect(text).not.toContain(unblinding?.treatment_group);
  });
}
