import type { SaeContent } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { acknowledgeSaeReport } from '../safety/acknowledge-sae-report.ts';
import { changeSaeAwareness } from '../safety/change-sae-awareness.ts';
import { saveSaeDraft } from '../safety/save-sae-draft.ts';
import { startSaeFollowUp } from '../safety/start-sae-follow-up.ts';
import { submitSaeReport } from '../safety/submit-sae-report.ts';
import { peopleByEmail } from './demo-subjects.ts';

export interface DemoSafetyInput {
  studyId: number;
  /** Each site's account that writes its reports, by institution number. */
  siteStaff: Record<string, string>;
  /** The site's PI (submits), by institution number; a site without one has none. */
  investigators: Record<string, string>;
  safetyDesk: string;
  password: string;
}

const HOUR = 3_600_000;

/**
 * Issue 51 item 5: the living demo's SAE reports. The subjects' saves that answered two adverse events
 * serious started their reports (sae-state/start-sae-reports.ts). Here, through the same commands as the
 * API: at a site with an investigator account, the report written, signed and submitted by the PI,
 * acknowledged by the safety desk, then a follow-up written, submitted and acknowledged too; at a site
 * without one, a report in progress — its awareness time corrected to 16 hours ago (the site learned of
 * it by phone), so its 24-hour clock shows about 8 hours left, and a first draft saved.
 */
export async function seedDemoSafety(db: Kysely<Database>, input: DemoSafetyInput): Promise<void> {
  const person = peopleByEmail(db);
  const reports = await db
    .selectFrom('sae_reports as r')
    .innerJoin('sites as s', 's.id', 'r.site_id')
    .select(['r.id', 'r.row_version', 's.institution_number', 'r.term'])
    .where('r.study_id', '=', input.studyId)
    .orderBy('r.id')
    .execute();
  const submitted = reports.find((report) => input.investigators[report.institution_number]);
  const inProgress = reports.find((report) => report !== submitted);

  if (submitted) {
    const staff = await person(input.siteStaff[submitted.institution_number] as string);
    const pi = await person(input.investigators[submitted.institution_number] as string);
    const desk = await person(input.safetyDesk);
    const ids = { studyId: input.studyId, reportId: submitted.id };
    const initial: SaeContent = {
      criteria: ['hospitalisation'],
      narrative: `${submitted.term}: 시술 후 발열(38.6°C)과 이통, 이루로 내원하여 입원. 고막 패치 부위 발적 관찰. 정맥 항생제(세프트리악손) 투여 시작.`,
      relevantHistory: '만성 중이염 10년, 당뇨병 없음. 최근 상기도 감염 없음.',
      suspectProducts: ['시험기기: 고막 재생 패치 (V2 적용)'],
      outcome: '회복 중',
      reporter: '김연구, 시험책임자, 이비인후과',
    };
    let report = await saveSaeDraft(db, staff.principal, staff.actor, {
      ...ids,
      rowVersion: submitted.row_version,
      content: initial,
    });
    report = await submitSaeReport(db, pi.principal, pi.actor, {
      ...ids,
      rowVersion: report.rowVersion,
      password: input.password,
    });
    report = await acknowledgeSaeReport(db, desk.principal, desk.actor, {
      ...ids,
      rowVersion: report.rowVersion,
    });
    report = await startSaeFollowUp(db, staff.principal, staff.actor, {
      ...ids,
      rowVersion: report.rowVersion,
    });
    report = await saveSaeDraft(db, staff.principal, staff.actor, {
      ...ids,
      rowVersion: report.rowVersion,
      content: {
        ...initial,
        narrative: `${initial.narrative}\n입원 5일째 해열, 이루 소실. 6일째 퇴원. 패치 유지, 추가 조치 없음.`,
        outcome: '회복됨 (후유증 없음)',
      },
    });
    report = await submitSaeReport(db, pi.principal, pi.actor, {
      ...ids,
      rowVersion: report.rowVersion,
      password: input.password,
    });
    await acknowledgeSaeReport(db, desk.principal, desk.actor, { ...ids, rowVersion: report.rowVersion });
  }

  if (inProgress) {
    const staff = await person(input.siteStaff[inProgress.institution_number] as string);
    const ids = { studyId: input.studyId, reportId: inProgress.id };
    let report = await changeSaeAwareness(db, staff.principal, staff.actor, {
      ...ids,
      rowVersion: inProgress.row_version,
      awarenessAt: new Date(Date.now() - 16 * HOUR).toISOString(),
      reason: '대상자 보호자의 전화로 전날 밤 입원 사실을 알게 됨',
    });
    report = await saveSaeDraft(db, staff.principal, staff.actor, {
      ...ids,
      rowVersion: report.rowVersion,
      content: {
        criteria: ['hospitalisation'],
        narrative: `${inProgress.term}: 복통으로 타 병원 응급실 내원, 충수절제술 시행. 의무기록 요청 중.`,
        relevantHistory: '',
        suspectProducts: [],
        outcome: '',
        reporter: '',
      },
    });
  }
}
