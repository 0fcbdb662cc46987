import type { Role, StudyKind } from '@cdms/contract';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import type { Kysely } from 'kysely';
import { createMembership } from '../admin/memberships.ts';
import { createSite } from '../admin/sites.ts';
import { createUser } from '../admin/users.ts';
import { systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { runCentralMonitoring } from '../central-monitoring/run-central-monitoring.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { definitionDocumentPath, readDefinitionDocument } from '../studies/read-definition-document.ts';
import { publishStudyDefinition } from '../study-design/publish-study-definition.ts';
import { seedDemoAmendments } from './demo-amendment.ts';
import { seedDemoBlinding } from './demo-blinding.ts';
import { seedDemoCoding } from './demo-coding.ts';
import { seedDemoDataExport } from './demo-data-export.ts';
import { seedDemoEnrollmentTargets } from './demo-enrollment-targets.ts';
import { seedDemoGuidelines } from './demo-guidelines.ts';
import { seedDemoLabRanges } from './demo-lab-ranges.ts';
import { seedDemoNotices } from './demo-notices.ts';
import { seedDemoQueries } from './demo-queries.ts';
import { seedDemoSafety } from './demo-safety.ts';
import { seedDemoSdvAndHolds } from './demo-sdv-and-holds.ts';
import { seedDemoSecondStudy } from './demo-second-study.ts';
import { seedDemoStudyInDesign } from './demo-study-in-design.ts';
import { seedDemoSubjects } from './demo-subjects.ts';
import { seedDemoTraining } from './demo-training.ts';
import { seedDemoUnscheduledVisits } from './demo-unscheduled-visits.ts';

/** Every demo account's password (README, and printed at start). */
export const DEMO_PASSWORD = 'cdms-demo-2026';

interface DemoAccount {
  email: string;
  name: string;
  role: Role;
  /** Institution numbers of the sites the role covers (none for DM and ADMIN: all sites). */
  sites: string[];
  isAdmin?: boolean;
}

export const demoAccounts: DemoAccount[] = [
  { email: 'admin@demo.cdms', name: '관리자', role: 'ADMIN', sites: [], isAdmin: true },
  { email: 'pi@demo.cdms', name: '김연구', role: 'PI', sites: ['01'] },
  { email: 'si@demo.cdms', name: '이부연', role: 'SI', sites: ['01'] },
  { email: 'crc@demo.cdms', name: '박코디', role: 'CRC', sites: ['02'] },
  // Site 03's coordinator: the living demo's subjects at 03 are entered by an account of that site.
  { email: 'crc3@demo.cdms', name: '한코디', role: 'CRC', sites: ['03'] },
  { email: 'cra@demo.cdms', name: '최모니', role: 'CRA', sites: ['01', '02'] },
  { email: 'dm@demo.cdms', name: '정데이', role: 'DM', sites: [] },
  // The sponsor's desks (issue 51): medical coding, the safety desk, the unblinded statistician.
  { email: 'coder@demo.cdms', name: '윤코딩', role: 'CODER', sites: [] },
  { email: 'safety@demo.cdms', name: '서안전', role: 'SAFETY', sites: [] },
  { email: 'stat@demo.cdms', name: '오통계', role: 'UNBLINDED', sites: [] },
];

/** Fictional institutions; the codes carry the prototype's 1Y/2Y/3Y suffixes. */
const demoSites = [
  { code: 'HBU-1Y', name: '한빛대학교병원', institutionNumber: '01' },
  { code: 'SBH-2Y', name: '새봄병원', institutionNumber: '02' },
  { code: 'NRM-3Y', name: '누리의료원', institutionNumber: '03' },
];

export interface DemoSeedOptions {
  /**
   * Also enter the living demo's subjects (demo-subjects.ts): `npm start` does; tests do only when
   * they ask, so that they start from an empty subject list.
   */
  subjects?: boolean;
}

/**
 * Fills an empty database with the demo: the tympanic membrane perforation study (active), one
 * ended study, three sites, one account per role (and a coordinator at site 03), and with
 * `subjects` about 30 subjects at every stage. Goes through the same commands as the API, so the
 * audit trail records it like any other change. Returns false when there was data already.
 */
export async function seedDemoData(db: Kysely<Database>, options: DemoSeedOptions = {}): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const actor = systemActor('demo-seed');

  const study = await insertStudy(db, {
    code: 'TMP-2026',
    title: '만성 고막 천공 환자에서 고막 재생 의료기기의 유효성 및 안전성 평가를 위한 다기관 임상시험',
    title_en:
      'A multicentre trial of the efficacy and safety of a tympanic membrane regeneration device in chronic perforation',
    content:
      '3개월 이상 지속된 만성 고막 천공(천공 크기 20–60%) 환자를 대상으로 고막 재생 의료기기 적용군과 대조군을 1:1로 무작위 배정하여, ' +
      '스크리닝(V1), 기기 적용(V2), 추적 관찰(V3–V5), 종료 방문(V6)에 걸쳐 고막 재생률, 순음청력검사 결과와 이상사례를 평가합니다.',
    status: 'active',
    registered_on: '2026-03-02',
  });
  const endedStudy = await insertStudy(db, {
    code: 'OME-2024',
    title: '소아 삼출성 중이염 환기관 삽입술 후 청력 회복에 관한 관찰 연구',
    title_en: 'Hearing recovery after ventilation tube insertion in children with otitis media with effusion',
    kind: 'observational',
    content:
      '환기관 삽입술을 받은 만 3–12세 소아의 수술 전후 청력 변화를 12개월 동안 관찰한 연구로, 2025년에 종료되었습니다.',
    status: 'ended',
    registered_on: '2024-04-15',
  });

  // TMP-2026 is installed from its definition document, as an uploaded one would be (issue 45).
  const definition = readDefinitionDocument(definitionDocumentPath(TM_PERFORATION_DOCUMENT));
  await publishStudyDefinition(db, actor, study, definition);

  const siteIds = new Map<string, number>();
  for (const site of demoSites) {
    const created = await createSite(db, actor, study, site);
    siteIds.set(site.institutionNumber, created.id);
  }
  const endedSite = await createSite(db, actor, endedStudy, demoSites[0] as (typeof demoSites)[number]);

  for (const account of demoAccounts) {
    const user = await createUser(db, actor, {
      email: account.email,
      name: account.name,
      contact: '',
      locale: 'ko',
      isAdmin: account.isAdmin ?? false,
      password: DEMO_PASSWORD,
    });
    const sites = account.sites.map((number) => siteIds.get(number) as number);
    await createMembership(db, actor, study, { userId: user.id, role: account.role, siteIds: sites });
    // Everyone also sees the ended study, at its one site, so the ended list has something in it.
    await createMembership(db, actor, endedStudy, {
      userId: user.id,
      role: account.role,
      siteIds: sites.length > 0 ? [endedSite.id] : [],
    });
  }

  if (options.subjects) {
    // Before the subjects: their lab results are flagged against these ranges as they are saved.
    await seedDemoLabRanges(db, { studyId: study, definition, siteIds, dataManager: 'dm@demo.cdms' });
    await seedDemoEnrollmentTargets(db, { studyId: study, siteIds, dataManager: 'dm@demo.cdms' });
    await seedDemoSubjects(db, {
      studyId: study,
      siteIds,
      // Sites 02 and 03 have no investigator account in the demo: their coordinator enters the
      // eligibility and end-of-study pages too (only site 01's PI signs casebooks).
      teams: {
        '01': { staff: 'si@demo.cdms', investigator: 'pi@demo.cdms' },
        '02': { staff: 'crc@demo.cdms', investigator: 'crc@demo.cdms' },
        '03': { staff: 'crc3@demo.cdms', investigator: 'crc3@demo.cdms' },
      },
      dataManager: 'dm@demo.cdms',
      signingPassword: DEMO_PASSWORD,
    });
    await seedDemoBlinding(db, {
      studyId: study,
      investigator: 'pi@demo.cdms',
      siteId: siteIds.get('01') as number,
      password: DEMO_PASSWORD,
    });
    await seedDemoQueries(db, {
      studyId: study,
      siteStaff: { '01': 'si@demo.cdms', '02': 'crc@demo.cdms', '03': 'crc3@demo.cdms' },
      monitor: 'cra@demo.cdms',
      dataManager: 'dm@demo.cdms',
    });
    // Issue 51: the coding desk — the fictional dictionaries loaded, matches coded, the rest queued.
    await seedDemoCoding(db, { studyId: study, coder: 'coder@demo.cdms' });
    // Issue 51: the SAE reports the serious adverse events started — one submitted, followed up and
    // acknowledged; one in progress on its 24-hour clock (before any freeze or lock).
    await seedDemoSafety(db, {
      studyId: study,
      siteStaff: { '01': 'si@demo.cdms', '02': 'crc@demo.cdms', '03': 'crc3@demo.cdms' },
      investigators: { '01': 'pi@demo.cdms' },
      safetyDesk: 'safety@demo.cdms',
      password: DEMO_PASSWORD,
    });
    // Issue 19: an unscheduled visit between V3 and V4 at sites 01 and 02 (before any freeze or lock).
    await seedDemoUnscheduledVisits(db, {
      studyId: study,
      siteStaff: { '01': 'si@demo.cdms', '02': 'crc@demo.cdms' },
    });
    // Last: a lock refuses the queries and SDV the steps above take.
    await seedDemoSdvAndHolds(db, { studyId: study, monitor: 'cra@demo.cdms', dataManager: 'dm@demo.cdms' });
    // Issue 18 item 5: two published modules, the site staff and the monitor trained; issue 51: the
    // gate on, and a new coordinator at site 02 (crc-new@demo.cdms) who must train before entering data.
    await seedDemoTraining(db, {
      studyId: study,
      dataManager: 'dm@demo.cdms',
      trained: ['pi@demo.cdms', 'si@demo.cdms', 'crc@demo.cdms', 'crc3@demo.cdms'],
      monitor: 'cra@demo.cdms',
      password: DEMO_PASSWORD,
    });
    await seedDemoGuidelines(db, {
      studyId: study,
      monitor: 'cra@demo.cdms',
      dataManager: 'dm@demo.cdms',
      coordinatorSiteId: siteIds.get('02') as number,
      investigatorSiteId: siteIds.get('01') as number,
    });
    await seedDemoNotices(db, { studyId: study, dataManager: 'dm@demo.cdms' });
    // Issue 49: an amendment published and migrated where approved, a second drafted for approval.
    await seedDemoAmendments(db, { studyId: study, dataManager: 'dm@demo.cdms', password: DEMO_PASSWORD });
    // After every change above, the amendment's migration included: the exports show the demo's data
    // as it stands, as of the current version and as entered.
    await seedDemoDataExport(db, { studyId: study, dataManager: 'dm@demo.cdms' });
    // Issue 50: central monitoring's first run over the demo's data (the patterns demo-casebooks and
    // demo-queries plant among them), so the dashboard's panel shows its signals at first look.
    await runCentralMonitoring(db, study);
    // Issue 45: a second study of another design, created, designed and taken live through the
    // commands, with subjects at every stage.
    await seedDemoSecondStudy(db, {
      administrator: 'admin@demo.cdms',
      dataManager: 'dm@demo.cdms',
      monitor: 'cra@demo.cdms',
      siteStaff: { '01': 'si@demo.cdms', '03': 'crc3@demo.cdms' },
      investigator: 'pi@demo.cdms',
      sites: demoSites.filter((site) => site.institutionNumber !== '02'),
      password: DEMO_PASSWORD,
    });
    // …and a third, just created and still in design.
    await seedDemoStudyInDesign(db, {
      administrator: 'admin@demo.cdms',
      dataManager: 'dm@demo.cdms',
      site: demoSites[1] as (typeof demoSites)[number],
    });
    // The notifications every step above raised stay queued in the outbox, as any event leaves them:
    // the server's worker delivers them (sent through SMTP_URL, or "not sent: no SMTP configured"). No
    // delivery state is written by hand (issue 43 item 9).
  }
  return true;
}

async function insertStudy(
  db: Kysely<Database>,
  values: {
    code: string;
    title: string;
    title_en: string;
    kind?: StudyKind;
    content: string;
    status: 'active' | 'ended';
    registered_on: string;
  },
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const study = await trx.insertInto('studies').values(values).returning('id').executeTakeFirstOrThrow();
    await recordAudit(trx, systemActor('demo-seed'), {
      type: 'study.created',
      entityType: 'study',
      entityId: study.id,
      studyId: study.id,
      after: values,
    });
    return study.id;
  });
}
