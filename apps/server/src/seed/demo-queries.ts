import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { actOnQuery } from '../queries/act-on-query.ts';
import { createQuery } from '../queries/create-query.ts';
import type { QueryAction } from '../queries/query-workflow.ts';
import { actingAs, type Person } from './demo-subjects.ts';

/**
 * The living demo's queries (issue 14): manual queries at every state — open, answered, closed,
 * cancelled, reopened — on several sites, with the Korean threads monitors and coordinators write,
 * and a few system queries answered by their site, so the query list, the counts and the badges are
 * real at first look. Each step goes through the command the API uses, as the demo account who
 * would take it, dated back from today like the rest of the demo.
 */

type Institution = '01' | '02' | '03';

interface DemoQueryStep {
  /** Days before now. */
  daysAgo: number;
  action: QueryAction;
  /** 'monitor' (CRA at 01/02, DM at 03), 'site' (the site's staff), 'dm'. */
  by: 'monitor' | 'site' | 'dm';
  text?: string;
  proposedValue?: string | number;
}

interface DemoQueryPlan {
  site: Institution;
  /** Which of the site's subjects with saved vital signs (0 = the first by screening number). */
  subject: number;
  formKey: 'vitalSigns' | 'demographicInfo';
  itemKey: string;
  openedDaysAgo: number;
  openedBy: 'monitor' | 'dm';
  text: string;
  steps: DemoQueryStep[];
}

export const demoQueryPlans: DemoQueryPlan[] = [
  {
    // open, 8–14 days
    site: '01',
    subject: 0,
    formKey: 'vitalSigns',
    itemKey: 'bloodPressureSystolic',
    openedDaysAgo: 12,
    openedBy: 'monitor',
    text: '원자료(진료기록)상 혈압이 128/82로 기록되어 있습니다. 확인 부탁드립니다.',
    steps: [],
  },
  {
    // answered
    site: '01',
    subject: 1,
    formKey: 'demographicInfo',
    itemKey: 'birthDate',
    openedDaysAgo: 20,
    openedBy: 'monitor',
    text: '생년월일이 동의서 사본의 기재 내용과 다릅니다. 원자료 확인 부탁드립니다.',
    steps: [{ daysAgo: 18, action: 'answer', by: 'site', text: '원자료 확인 후 수정하였습니다.' }],
  },
  {
    // closed after an answer
    site: '02',
    subject: 0,
    formKey: 'vitalSigns',
    itemKey: 'heartRate',
    openedDaysAgo: 35,
    openedBy: 'monitor',
    text: '맥박 측정값이 간호기록지와 다릅니다. 확인 부탁드립니다.',
    steps: [
      {
        daysAgo: 33,
        action: 'answer',
        by: 'site',
        text: '간호기록지 확인 결과 입력값이 맞습니다. 간호기록지의 값은 재측정 전 값입니다.',
      },
      { daysAgo: 30, action: 'close', by: 'monitor', text: '확인되었습니다. 쿼리를 종료합니다.' },
    ],
  },
  {
    // cancelled
    site: '02',
    subject: 1,
    formKey: 'vitalSigns',
    itemKey: 'bodyTemperature',
    openedDaysAgo: 9,
    openedBy: 'monitor',
    text: '체온이 원자료와 다릅니다. 확인 부탁드립니다.',
    steps: [
      {
        daysAgo: 8,
        action: 'cancel',
        by: 'monitor',
        text: '다른 방문의 원자료와 비교하여 잘못 발행하였습니다. 쿼리를 취소합니다.',
      },
    ],
  },
  {
    // reopened: answered, sent back, still open
    site: '01',
    subject: 2,
    formKey: 'vitalSigns',
    itemKey: 'bloodPressureDiastolic',
    openedDaysAgo: 25,
    openedBy: 'monitor',
    text: '이완기 혈압이 원자료(진료기록)상 82로 기록되어 있습니다. 확인 부탁드립니다.',
    steps: [
      {
        daysAgo: 23,
        action: 'answer',
        by: 'site',
        text: '원자료 확인 후 수정하였습니다.',
        proposedValue: 82,
      },
      {
        daysAgo: 20,
        action: 'reopen',
        by: 'monitor',
        text: '수정 사유가 기록되지 않았습니다. 변경 사유를 추가로 기재해 주세요.',
      },
    ],
  },
  {
    // open, 0–7 days, raised by data management at site 03
    site: '03',
    subject: 0,
    formKey: 'vitalSigns',
    itemKey: 'bodyTemperature',
    openedDaysAgo: 4,
    openedBy: 'dm',
    text: '체온 단위(℃)와 측정 부위를 원자료에서 확인 부탁드립니다.',
    steps: [],
  },
  {
    // answered, over 30 days old, site 03
    site: '03',
    subject: 1,
    formKey: 'demographicInfo',
    itemKey: 'gender',
    openedDaysAgo: 45,
    openedBy: 'dm',
    text: '성별이 스크리닝 기록과 일치하는지 확인 부탁드립니다.',
    steps: [
      { daysAgo: 40, action: 'comment', by: 'dm', text: '스크리닝 기록지 사본도 함께 확인 부탁드립니다.' },
      {
        daysAgo: 38,
        action: 'answer',
        by: 'site',
        text: '스크리닝 기록지와 대조하였으며 입력값이 맞습니다.',
      },
    ],
  },
];

/** What the site says on a system query whose check fails although the value is right. */
const SYSTEM_ANSWER = '원자료 확인 결과 입력값이 맞습니다. 원자료대로 유지합니다.';

export interface DemoQueriesInput {
  studyId: number;
  /** The coordinator (or investigator) who answers at each site. */
  siteStaff: Readonly<Record<Institution, string>>;
  monitor: string;
  dataManager: string;
}

const DAY = 86_400_000;

/** Returns how many manual queries it raised. */
export async function seedDemoQueries(db: Kysely<Database>, input: DemoQueriesInput): Promise<number> {
  const people = new Map<string, Person>();
  const as = async (email: string) => {
    let found = people.get(email);
    if (!found) {
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      found = await actingAs(db, user, 'demo-seed');
      people.set(email, found);
    }
    return found;
  };
  const now = Date.now();
  const who = (by: 'monitor' | 'site' | 'dm', site: Institution) =>
    by === 'site'
      ? input.siteStaff[site]
      : by === 'dm' || site === '03' // the CRA covers sites 01 and 02
        ? input.dataManager
        : input.monitor;

  let raised = 0;
  for (const plan of demoQueryPlans) {
    // The site's subjects with both forms saved, registered before the query's story starts.
    const candidates = await db
      .selectFrom('subjects')
      .innerJoin('sites', 'sites.id', 'subjects.site_id')
      .select('subjects.id')
      .where('subjects.study_id', '=', input.studyId)
      .where('sites.institution_number', '=', plan.site)
      .where('subjects.deleted_at', 'is', null)
      .where('subjects.created_at', '<', new Date(now - (plan.openedDaysAgo + 1) * DAY))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('form_instances')
            .select('form_instances.id')
            .whereRef('form_instances.subject_id', '=', 'subjects.id')
            .where('form_instances.visit_key', '=', 'v1')
            .where('form_instances.form_key', '=', plan.formKey)
            .where('form_instances.has_data', '=', true),
        ),
      )
      .orderBy('subjects.screening_number')
      .execute();
    const subject = candidates[plan.subject] ?? candidates[0];
    if (!subject) continue;
    const opener = await as(who(plan.openedBy, plan.site));
    const queryId = await createQuery(
      db,
      opener.principal,
      opener.actor,
      input.studyId,
      {
        subjectPk: subject.id,
        visitKey: 'v1',
        formKey: plan.formKey,
        itemPath: `v1.${plan.formKey}.${plan.itemKey}`,
        text: plan.text,
        assignee: 'site',
      },
      { at: new Date(now - plan.openedDaysAgo * DAY) },
    );
    raised += 1;
    for (const step of plan.steps) {
      const actor = await as(who(step.by, plan.site));
      await actOnQuery(
        db,
        actor.principal,
        actor.actor,
        input.studyId,
        queryId,
        step.action,
        { text: step.text, proposedValue: step.proposedValue },
        { at: new Date(now - step.daysAgo * DAY) },
      );
    }
  }

  // A few system queries answered by their site: the first open one at each site.
  for (const site of ['01', '02', '03'] as const) {
    const open = await db
      .selectFrom('queries')
      .innerJoin('sites', 'sites.id', 'queries.site_id')
      .select('queries.id')
      .where('queries.study_id', '=', input.studyId)
      .where('queries.kind', '=', 'system')
      .where('queries.status', '=', 'open')
      .where('sites.institution_number', '=', site)
      .orderBy('queries.id')
      .executeTakeFirst();
    if (!open) continue;
    const staff = await as(input.siteStaff[site]);
    await actOnQuery(db, staff.principal, staff.actor, input.studyId, open.id, 'answer', {
      text: SYSTEM_ANSWER,
    });
  }
  return raised;
}
