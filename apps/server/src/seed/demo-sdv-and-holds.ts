import { getStudyIndex } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { placeHold } from '../holds/place-hold.ts';
import { AppError } from '../http/errors.ts';
import { updateSdvPlan } from '../sdv/update-sdv-plan.ts';
import { verifyVisit } from '../sdv/verify-visit.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's SDV and holds (issue 15), through the commands the API uses, as the demo account
 * who would act: the data manager sets a targeted plan (critical items, plus every item of the first
 * three subjects of each site); the monitor has verified the finished subjects of site 01 in full, and
 * two subjects in follow-up at site 01 and the first two of site 02 part of the way; at site 01 the
 * data manager has locked a finished, signed casebook and the monitor has frozen another finished one
 * for its last review. Subjects still in follow-up stay open for the browser tests and the demo.
 */

export interface DemoSdvInput {
  studyId: number;
  monitor: string;
  dataManager: string;
}

export const DEMO_SDV_PLAN = { mode: 'critical', firstSubjectsPerSite: 3 } as const;

export async function seedDemoSdvAndHolds(db: Kysely<Database>, input: DemoSdvInput): Promise<void> {
  const monitor = await personByEmail(db, input.monitor);
  const dataManager = await personByEmail(db, input.dataManager);
  const current = await currentStudyDefinition(db, input.studyId);
  if (!current) return;
  await updateSdvPlan(db, dataManager.principal, dataManager.actor, input.studyId, DEMO_SDV_PLAN);

  const subjectsAt = (institution: string) =>
    db
      .selectFrom('subjects')
      .innerJoin('sites', 'sites.id', 'subjects.site_id')
      .leftJoin('subject_facts', 'subject_facts.subject_id', 'subjects.id')
      .select(['subjects.id', 'subjects.status', 'subject_facts.signature_state'])
      .where('subjects.study_id', '=', input.studyId)
      .where('sites.institution_number', '=', institution)
      .where('subjects.deleted_at', 'is', null)
      .orderBy('subjects.screening_number')
      .execute();
  const visits = getStudyIndex(current.definition).definition.visits.map((visit) => visit.key);
  /** Every visit of the subject the plan has something left in, up to `visitCount` visits. */
  const verifyVisits = async (subjectId: number, visitCount: number) => {
    for (const visitKey of visits.slice(0, visitCount)) {
      try {
        await verifyVisit(db, monitor.principal, monitor.actor, input.studyId, {
          subjectPk: subjectId,
          visitKey,
        });
      } catch (error) {
        // A visit with nothing saved, or nothing in the plan, has nothing to verify.
        if (!(error instanceof AppError && error.code === 'sdv_nothing_to_verify')) throw error;
      }
    }
  };

  // Site 01: the finished casebooks verified in full, the next two in follow-up part of the way.
  const site01 = await subjectsAt('01');
  const finished = site01.filter((subject) => subject.status === 'complete');
  for (const subject of finished) await verifyVisits(subject.id, visits.length);
  for (const subject of site01.filter((candidate) => candidate.status === 'ongoing').slice(0, 2)) {
    await verifyVisits(subject.id, 2);
  }
  // Site 02: the first two subjects part of the way, the screening and baseline visits.
  for (const subject of (await subjectsAt('02')).slice(0, 2)) await verifyVisits(subject.id, 3);

  // The signed one is locked; another finished one is frozen for its last review.
  const lockedFirst = [...finished].sort(
    (a, b) => Number(b.signature_state === 'signed') - Number(a.signature_state === 'signed'),
  );
  const [locked, frozen] = lockedFirst;
  if (locked) {
    await placeHold(db, dataManager.principal, dataManager.actor, input.studyId, {
      kind: 'locked',
      target: { level: 'subject', subjectPk: locked.id },
      reason: '자료 검토, SDV, 서명 완료: 대상자 잠금',
    });
  }
  if (frozen) {
    await placeHold(db, monitor.principal, monitor.actor, input.studyId, {
      kind: 'frozen',
      target: { level: 'subject', subjectPk: frozen.id },
      reason: '최종 모니터링 방문 전 자료 프리징',
    });
  }
}
