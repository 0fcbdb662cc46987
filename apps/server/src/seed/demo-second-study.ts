import fs from 'node:fs';
import path from 'node:path';
import {
  createStudyRequestSchema,
  createSubjectRequestSchema,
  saveFormRequestSchema,
  todayInKorea,
} from '@cdms/contract';
import { HEAR_FOLLOW_UP_DOCUMENT } from '@cdms/study';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { createStudy } from '../admin/create-study.ts';
import { createMembership } from '../admin/memberships.ts';
import { createSite } from '../admin/sites.ts';
import { createSubject } from '../data-entry/create-subject.ts';
import { saveForm } from '../data-entry/save-form.ts';
import type { Database } from '../db/schema.ts';
import { placeHold } from '../holds/place-hold.ts';
import { actOnQuery } from '../queries/act-on-query.ts';
import { createQuery } from '../queries/create-query.ts';
import { verifyVisit } from '../sdv/verify-visit.ts';
import { signCasebook } from '../signatures/sign-casebook.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { goLive } from '../study-design/go-live.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';
import { peopleByEmail } from './demo-subjects.ts';
import { importDemoRedcapDesign } from './import-demo-redcap-design.ts';
import { readDataFile } from './read-data-file.ts';

/**
 * The living demo's second study (issue 45 item 5): HEAR-2027, an observational hearing follow-up
 * after chronic otitis media surgery, with a design of its own (`hear-followup.json`: enrolment,
 * baseline on the day of surgery, 6 and 12 months, unscheduled visits, no randomization, a
 * repeating group of hearing devices, derived audiometry averages and a quality-of-life score).
 * Everything goes through the commands the API runs: the administrator creates it (`createStudy`),
 * adds sites 01 and 03 and the members, the data manager imports the design the team kept in REDCap
 * (seed/redcap/hear-2027-*.csv, through the import's preview and confirmation) and then uploads the
 * completed document (`replaceStudyDefinition`), the administrator signs its go-live (`goLive`); then site 01's
 * sub-investigator and site 03's coordinator enter nine subjects at every stage, the monitor raises
 * queries, verifies visits and freezes a form, and site 01's investigator signs a casebook.
 */
export async function seedDemoSecondStudy(
  db: Kysely<Database>,
  input: {
    administrator: string;
    dataManager: string;
    monitor: string;
    siteStaff: { '01': string; '03': string };
    investigator: string;
    sites: { code: string; name: string; institutionNumber: string }[];
    password: string;
  },
): Promise<number> {
  const as = peopleByEmail(db);
  const creator = await as(input.administrator);
  const study = await createStudy(
    db,
    creator.actor,
    createStudyRequestSchema.parse({
      code: 'HEAR-2027',
      protocolNumber: 'CDMS-HEAR-2027-01',
      titleKo: '만성 중이염 수술 후 청력 추적 관찰 연구',
      titleEn: 'Hearing follow-up after chronic otitis media surgery',
      sponsor: '한빛대학교병원 이비인후과',
      kind: 'observational',
      content:
        '고실성형술을 받은 만성 중이염 환자의 수술 전후 순음청력과 삶의 질을 12개월 동안 관찰합니다. 무작위 배정은 없습니다.',
      registeredOn: '2025-09-15',
    }),
    creator.principal.user.id,
  );
  const siteIds = new Map<string, number>();
  for (const site of input.sites) {
    siteIds.set(site.institutionNumber, (await createSite(db, creator.actor, study.id, site)).id);
  }
  const site = (number: '01' | '03') => siteIds.get(number) as number;
  const userId = async (email: string) =>
    (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const members: [string, 'DM' | 'CRA' | 'PI' | 'SI' | 'CRC', number[]][] = [
    [input.dataManager, 'DM', []],
    [input.monitor, 'CRA', [site('01'), site('03')]],
    [input.investigator, 'PI', [site('01')]],
    [input.siteStaff['01'], 'SI', [site('01')]],
    [input.siteStaff['03'], 'CRC', [site('03')]],
  ];
  for (const [email, role, sites] of members) {
    await createMembership(db, creator.actor, study.id, {
      userId: await userId(email),
      role,
      siteIds: sites,
    });
  }

  // The people as they are now members (their principals carry the new study).
  const people = peopleByEmail(db);
  // The team kept HEAR-2027's forms in REDCap: the data manager imports that project's dictionary and
  // event mapping first (its draft), then completes the design in CDMS with what REDCap cannot say —
  // visit windows, edit checks, the repeating device and event groups, the eligibility outcome — and
  // uploads the result, which replaces the imported draft of version 1.0.0 before it goes live (the
  // audit trail shows the import and the upload).
  await importDemoRedcapDesign(db, { studyId: study.id, dataManager: input.dataManager, name: 'hear-2027' });
  const designer = await people(input.dataManager);
  const document = JSON.parse(fs.readFileSync(definitionDocumentPath(HEAR_FOLLOW_UP_DOCUMENT), 'utf8'));
  // The completed design is the imported draft's next text: it keeps the key the import gave the study.
  const draft = await currentStudyDefinition(db, study.id);
  await replaceStudyDefinition(db, designer.actor, study.id, { ...document, key: draft?.definition.key });
  const administrator = await people(input.administrator);
  await goLive(db, administrator.principal, administrator.actor, study.id, { password: input.password });

  const subjectIds: number[] = [];
  for (const [index, plan] of HEAR_SUBJECTS.entries()) {
    const staff = await people(input.siteStaff[plan.site]);
    const consentDate = daysAgo(plan.consentDaysAgo);
    const created = await createSubject(
      db,
      staff.principal,
      staff.actor,
      study.id,
      createSubjectRequestSchema.parse({ siteId: site(plan.site), consentDate, initials: plan.initials }),
      {
        registeredAt: new Date(
          Math.min(Date.parse(`${consentDate}T10:00:00+09:00`) + index * 60_000, Date.now()),
        ),
      },
    );
    subjectIds.push(created.id);
    for (const [visitKey, formKey, values] of casebookOf(plan)) {
      await saveForm(db, staff.principal, staff.actor, {
        studyId: study.id,
        subjectId: created.id,
        visitKey,
        formKey,
        request: saveFormRequestSchema.parse({ values, version: 0, reasons: {} }),
      });
    }
  }

  const monitor = await people(input.monitor);
  const subject = (initials: string) =>
    subjectIds[HEAR_SUBJECTS.findIndex((plan) => plan.initials === initials)] as number;
  // An open query at site 03 and one answered at site 01.
  await createQuery(db, monitor.principal, monitor.actor, study.id, {
    subjectPk: subject('OJS'),
    visitKey: 'baseline',
    formKey: 'audiometry',
    itemPath: 'baseline.audiometry.air1000',
    text: '1000 Hz 기도 역치가 500 Hz보다 25 dB 높습니다. 청력검사 원자료를 확인해 주세요.',
    assignee: 'site',
  });
  const answered = await createQuery(db, monitor.principal, monitor.actor, study.id, {
    subjectPk: subject('LMJ'),
    visitKey: 'baseline',
    formKey: 'surgery',
    itemPath: 'baseline.surgery.graft',
    text: '수술 기록지에는 연골 이식으로 되어 있습니다. 이식 재료를 확인해 주세요.',
    assignee: 'site',
  });
  const site01 = await people(input.siteStaff['01']);
  await actOnQuery(db, site01.principal, site01.actor, study.id, answered, 'answer', {
    text: '수술 기록지를 다시 확인했습니다. 측두근막 이식이 맞으며 기록지의 오기입니다.',
  });
  // Source data verified for the two finished subjects at site 01; one of their forms frozen.
  for (const initials of ['HKS', 'JYP'])
    for (const visitKey of ['baseline', 'month6', 'month12'])
      await verifyVisit(db, monitor.principal, monitor.actor, study.id, {
        subjectPk: subject(initials),
        visitKey,
      });
  await placeHold(db, monitor.principal, monitor.actor, study.id, {
    kind: 'frozen',
    target: { level: 'form', subjectPk: subject('JYP'), visitKey: 'month12', formKey: 'audiometry' },
    reason: '12개월 청력검사 원자료 검토 완료: 양식 프리징',
  });
  const investigator = await people(input.investigator);
  await signCasebook(db, investigator.principal, investigator.actor, {
    studyId: study.id,
    subjectId: subject('HKS'),
    password: input.password,
  });
  return study.id;
}

/** The day `days` before today in Korea, YYYY-MM-DD. */
function daysAgo(days: number): string {
  const today = new Date(`${todayInKorea()}T00:00:00Z`);
  return new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

function daysAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const hearSubjectPlanSchema = z.strictObject({
  site: z.enum(['01', '03']),
  initials: z.string(),
  consentDaysAgo: z.number().int().min(0),
  birthDate: z.iso.date(),
  sex: z.enum(['M', 'F']),
  ear: z.enum(['R', 'L']),
  /** Air-conduction thresholds at 500, 1000, 2000, 4000 Hz before surgery; the bone ones sit ~25 dB better. */
  air: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** The follow-up visits done: month 6, month 12. */
  followUps: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  ending: z
    .strictObject({ status: z.enum(['completed', 'withdrew', 'screenFail']), reason: z.string().optional() })
    .optional(),
  eligible: z.literal(false).optional(),
  hearingAid: z.literal(true).optional(),
  adverseEvent: z
    .strictObject({
      term: z.string(),
      serious: z.enum(['Y', 'N']),
      severity: z.enum(['mild', 'moderate', 'severe']),
      outcome: z.string(),
    })
    .optional(),
  /** Only the visit date and the demographics saved so far. */
  partial: z.literal(true).optional(),
});
type HearSubjectPlan = z.infer<typeof hearSubjectPlanSchema>;

/** HEAR-2027's nine subjects are data, kept in demo-second-study-subjects.json beside this module. */
const HEAR_SUBJECTS: HearSubjectPlan[] = readDataFile(
  path.join(import.meta.dirname, 'demo-second-study-subjects.json'),
  z.strictObject({ subjects: z.array(hearSubjectPlanSchema) }),
).subjects;

type FormSave = [visitKey: string, formKey: string, values: Record<string, unknown>];

/** A subject's saves in the order a site enters them, from the plan. */
function casebookOf(plan: HearSubjectPlan): FormSave[] {
  const consent = daysAgo(plan.consentDaysAgo);
  const surgery = daysAfter(consent, 7);
  const saves: FormSave[] = [
    ['baseline', 'visitInfo', { visitDate: surgery }],
    ['baseline', 'demographics', { birthDate: plan.birthDate, sex: plan.sex }],
  ];
  if (plan.partial) return saves;
  const audiometry = (date: string, gain: number) => {
    const [a500, a1000, a2000, a4000] = plan.air.map((threshold) => Math.max(0, threshold - gain));
    const bone = (threshold: number) => Math.max(0, threshold - 25);
    return {
      testDate: date,
      testedEar: plan.ear,
      air500: a500,
      air1000: a1000,
      air2000: a2000,
      air4000: a4000,
      bone500: bone(plan.air[0]),
      bone1000: bone(plan.air[1]),
      bone2000: bone(plan.air[2]),
      bone4000: bone(plan.air[3]),
    };
  };
  const qualityOfLife = (better: number) => ({
    q1: Math.max(0, 3 - better),
    q2: Math.max(0, 2 - better),
    q3: 1,
    q4: Math.max(0, 2 - better),
    q5: Math.max(0, 3 - better),
  });
  const devices = plan.hearingAid
    ? {
        usesDevice: 'Y',
        devices: [
          { device: 'airConduction', deviceEar: plan.ear, since: daysAfter(consent, -400), hoursPerDay: 10 },
        ],
      }
    : { usesDevice: 'N' };
  const eligible = plan.eligible !== false;
  saves.push(
    [
      'baseline',
      'surgery',
      { surgeryDate: surgery, operatedEar: plan.ear, surgeryType: 'tympanoplasty', graft: 'fascia' },
    ],
    ['baseline', 'audiometry', audiometry(daysAfter(consent, 3), 0)],
    ['baseline', 'qualityOfLife', qualityOfLife(0)],
    ['baseline', 'hearingAids', devices],
    [
      'baseline',
      'eligibility',
      {
        inAdult: 'Y',
        inChronicOtitis: 'Y',
        inFollowUp: 'Y',
        exCholesteatoma: eligible ? 'N' : 'Y',
        exOtherEarSurgery: 'N',
        eligible: eligible ? 'Y' : 'N',
      },
    ],
  );
  const followUps: [string, number][] = [
    ['month6', 182],
    ['month12', 365],
  ];
  for (const [visitKey, offset] of followUps.slice(0, plan.followUps)) {
    const date = daysAfter(surgery, offset + 2);
    const gain = visitKey === 'month6' ? 15 : 20;
    saves.push(
      [visitKey, 'visitInfo', { visitDate: date }],
      [visitKey, 'audiometry', audiometry(date, gain)],
      [visitKey, 'qualityOfLife', qualityOfLife(visitKey === 'month6' ? 1 : 2)],
      [visitKey, 'hearingAids', plan.hearingAid && visitKey === 'month12' ? { usesDevice: 'N' } : devices],
    );
  }
  const event = plan.adverseEvent;
  saves.push([
    'all',
    'adverseEvents',
    event
      ? {
          hasAdverseEvent: 'Y',
          events: [
            {
              term: event.term,
              startDate: daysAfter(surgery, 10),
              ...(event.outcome === 'recovered' ? { endDate: daysAfter(surgery, 24) } : {}),
              serious: event.serious,
              severity: event.severity,
              outcome: event.outcome,
            },
          ],
        }
      : { hasAdverseEvent: 'N' },
  ]);
  if (plan.ending) {
    const endDate =
      plan.ending.status === 'completed'
        ? daysAfter(surgery, 367)
        : plan.ending.status === 'screenFail'
          ? surgery
          : daysAfter(surgery, 250);
    saves.push([
      'all',
      'studyEnd',
      {
        status: plan.ending.status,
        endDate,
        ...(plan.ending.status === 'withdrew' ? { dropoutReason: plan.ending.reason } : {}),
        ...(plan.ending.status === 'screenFail' ? { screeningFailureReason: plan.ending.reason } : {}),
      },
    ]);
  }
  return saves;
}
