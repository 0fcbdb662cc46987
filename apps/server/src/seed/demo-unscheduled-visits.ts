import { addDays, daysBetween, type FormValues, isValidDate, unscheduledVisitKey } from '@cdms/study';
import type { Kysely } from 'kysely';
import { loadSubjectData } from '../data-entry/form-data.ts';
import { saveForm } from '../data-entry/save-form.ts';
import type { Database } from '../db/schema.ts';
import { addUnscheduledVisit } from '../unscheduled-visits/add-unscheduled-visit.ts';
import { personByEmail } from './demo-subjects.ts';

/** The reason the demo's unscheduled visits give (issue 19 item 1). */
export const DEMO_UNSCHEDULED_REASON = '이통(귀 통증)과 귀 분비물로 예정에 없던 방문';

const PTA_FREQUENCIES = [500, 1000, 2000, 4000];

/**
 * The PTA of an earlier test, each threshold 5 dB better (not below −10 dB HL) and a conduction not done
 * then not done now; 40/20 dB when there was no earlier test.
 */
function improvedHearing(earlier: FormValues | undefined): FormValues {
  const values: FormValues = {};
  for (const conduction of ['air', 'bone'] as const) {
    if (earlier?.[`${conduction}Nd`] === true) {
      values[`${conduction}Nd`] = true;
      continue;
    }
    for (const hz of PTA_FREQUENCIES) {
      const before = earlier?.[`${conduction}${hz}`];
      const start = typeof before === 'number' ? before : conduction === 'air' ? 40 : 20;
      values[`${conduction}${hz}`] = Math.max(-10, start - 5);
    }
  }
  return values;
}

/**
 * The living demo's unscheduled visits (issue 19 item 1): at sites 01 and 02, the first ongoing,
 * unsigned subject who has had V3 and V4 gets an unscheduled visit halfway between them — otalgia and
 * discharge — with vital signs, otoscopy (the V3 findings, now with discharge), the events of interest
 * and a hearing test (so the overview's audiogram comparison ends there), entered by the site's staff
 * through the same commands as the API. Returns the subjects.
 */
/** The vital signs at each site's unscheduled visit: a slight fever with the ear's discharge. */
const UNSCHEDULED_VITAL_SIGNS: Record<'01' | '02', FormValues> = {
  '01': { bloodPressureSystolic: 126, bloodPressureDiastolic: 82, heartRate: 84, bodyTemperature: 37.4 },
  '02': { bloodPressureSystolic: 120, bloodPressureDiastolic: 75, heartRate: 91, bodyTemperature: 37.7 },
};

export async function seedDemoUnscheduledVisits(
  db: Kysely<Database>,
  input: { studyId: number; siteStaff: Record<'01' | '02', string> },
): Promise<number[]> {
  const seeded: number[] = [];
  for (const [institution, email] of Object.entries(input.siteStaff)) {
    const staff = await personByEmail(db, email);
    const candidates = await db
      .selectFrom('subjects')
      .innerJoin('sites', 'sites.id', 'subjects.site_id')
      .select('subjects.id')
      .where('subjects.study_id', '=', input.studyId)
      .where('sites.institution_number', '=', institution)
      .where('subjects.status', '=', 'ongoing')
      .where('subjects.deleted_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('signatures').select('id').whereRef('signatures.subject_id', '=', 'subjects.id')),
        ),
      )
      .orderBy('subjects.screening_number')
      .execute();
    for (const { id } of candidates) {
      const data = (await loadSubjectData(db, id)).entered;
      const v3 = data.v3?.visitDay?.visitDate;
      const v4 = data.v4?.visitDay?.visitDate;
      const gap = daysBetween(v3, v4);
      if (!isValidDate(v3) || gap === null || gap < 2) continue;
      const visitDate = addDays(v3, Math.floor(gap / 2));
      if (visitDate === null) continue;
      const visit = await addUnscheduledVisit(db, staff.principal, staff.actor, {
        studyId: input.studyId,
        subjectId: id,
        request: { visitDate, reason: DEMO_UNSCHEDULED_REASON },
      });
      const forms: [string, FormValues][] = [
        [
          'vitalSigns',
          {
            measurementDate: visitDate,
            // Each site its own patient's measurements: the same row at two sites would be a
            // duplicated record to central monitoring (issue 50).
            ...UNSCHEDULED_VITAL_SIGNS[institution as '01' | '02'],
            result: 'normal',
          },
        ],
        ['otoscopyEndoscopy', { ...(data.v3?.otoscopyEndoscopy ?? { perforation: 'Y' }), otorrhea: 'Y' }],
        ['interestAdverseEvent', { collectionDate: visitDate, pain: 'Y', otorrhea: 'Y', reperforation: 'N' }],
        // A hearing check at the visit: the baseline thresholds, 5 dB better since the device was applied.
        ['ptaTest', improvedHearing(data.v2?.ptaTest ?? data.v1?.ptaTest)],
      ];
      for (const [formKey, values] of forms) {
        await saveForm(db, staff.principal, staff.actor, {
          studyId: input.studyId,
          subjectId: id,
          visitKey: unscheduledVisitKey(visit.repeatKey),
          formKey,
          request: { values, version: 0 },
        });
      }
      seeded.push(id);
      break;
    }
  }
  return seeded;
}
