import { orderVisitKeys, unscheduledVisitKey } from '@cdms/study';
import { expect, it } from 'vitest';
import { loadSubjectData } from '../../src/data-entry/form-data.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { DEMO_UNSCHEDULED_REASON } from '../../src/seed/demo-unscheduled-visits.ts';
import { currentStudyDefinition } from '../../src/studies/study-definitions.ts';

/**
 * Issue 19 item 1 over the living demo (run by test/living-demo.test.ts): subjects at sites 01 and 02
 * have an unscheduled visit between their V3 and V4 with vital signs, otoscopy, the events of interest
 * and a hearing test saved; it is audited, sits between V3 and V4 in the visits' order, and the read model's
 * visit windows and visit rows know nothing of it.
 */
export function demoUnscheduledVisitChecks(database: () => DatabaseHandle): void {
  async function demo() {
    const db = database().db;
    const study = await db
      .selectFrom('studies')
      .select('id')
      .where('code', '=', 'TMP-2026')
      .executeTakeFirstOrThrow();
    const visits = await db
      .selectFrom('unscheduled_visits')
      .innerJoin('subjects', 'subjects.id', 'unscheduled_visits.subject_id')
      .innerJoin('sites', 'sites.id', 'subjects.site_id')
      .select([
        'unscheduled_visits.subject_id',
        'unscheduled_visits.repeat_key',
        'unscheduled_visits.visit_date',
        'unscheduled_visits.reason',
        'sites.institution_number',
      ])
      .where('unscheduled_visits.study_id', '=', study.id)
      .where('unscheduled_visits.deleted_at', 'is', null)
      .orderBy('unscheduled_visits.subject_id')
      .execute();
    return { db, study, visits };
  }

  it('has an unscheduled visit at sites 01 and 02, with its forms saved', async () => {
    const { db, visits } = await demo();
    expect([...new Set(visits.map((visit) => visit.institution_number))].sort()).toEqual(['01', '02']);
    for (const visit of visits) {
      expect(visit.reason).toBe(DEMO_UNSCHEDULED_REASON);
      const saved = await db
        .selectFrom('form_instances')
        .select('form_key')
        .where('subject_id', '=', visit.subject_id)
        .where('visit_key', '=', unscheduledVisitKey(visit.repeat_key))
        .where('has_data', '=', true)
        .orderBy('form_key')
        .execute();
      expect(saved.map((form) => form.form_key)).toEqual([
        'interestAdverseEvent',
        'otoscopyEndoscopy',
        'ptaTest',
        'vitalSigns',
      ]);
      // Its hearing test: every threshold 5 dB better than at baseline (V2), a conduction not done then not now.
      const data = (await loadSubjectData(db, visit.subject_id)).entered;
      const baseline = data.v2?.ptaTest ?? {};
      const hearing = data[unscheduledVisitKey(visit.repeat_key)]?.ptaTest ?? {};
      for (const conduction of ['air', 'bone']) {
        if (baseline[`${conduction}Nd`] === true) {
          expect(hearing[`${conduction}Nd`]).toBe(true);
          continue;
        }
        for (const hz of [500, 1000, 2000, 4000])
          expect(hearing[`${conduction}${hz}`]).toBe(
            Math.max(-10, (baseline[`${conduction}${hz}`] as number) - 5),
          );
      }
    }
  });

  it('lies between V3 and V4 by date and in the visits order, and was audited', async () => {
    const { db, study, visits } = await demo();
    const definition = (await currentStudyDefinition(db, study.id))?.definition;
    if (!definition) throw new Error('no definition');
    for (const visit of visits) {
      const data = (await loadSubjectData(db, visit.subject_id)).entered;
      const v3 = data.v3?.visitDay?.visitDate as string;
      const v4 = data.v4?.visitDay?.visitDate as string;
      expect(visit.visit_date > v3 && visit.visit_date < v4).toBe(true);
      const key = unscheduledVisitKey(visit.repeat_key);
      const order = orderVisitKeys(definition, { v3, v4 }, [
        { visitKey: key, repeatKey: visit.repeat_key, visitDate: visit.visit_date },
      ]);
      expect(order.indexOf(key)).toBe(order.indexOf('v3') + 1);
      const audit = await db
        .selectFrom('audit_events')
        .select(['reason'])
        .where('subject_id', '=', visit.subject_id)
        .where('event_type', '=', 'visit.unscheduled_added')
        .where('entity_id', '=', key)
        .execute();
      expect(audit).toEqual([{ reason: DEMO_UNSCHEDULED_REASON }]);
    }
  });

  it('moves no visit window and adds no visit row to the read model', async () => {
    const { db, visits } = await demo();
    const subjectIds = visits.map((visit) => visit.subject_id);
    const windows = await db
      .selectFrom('subject_visit_windows')
      .select('visit_key')
      .where('subject_id', 'in', subjectIds)
      .execute();
    const rows = await db
      .selectFrom('subject_visits')
      .select('visit_key')
      .where('subject_id', 'in', subjectIds)
      .execute();
    expect(windows.length).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(0);
    expect([...windows, ...rows].filter((row) => row.visit_key.startsWith('unscheduled-'))).toEqual([]);
  });
}
