import path from 'node:path';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { actOnQuery } from '../queries/act-on-query.ts';
import { createQuery } from '../queries/create-query.ts';
import { QUERY_ACTIONS } from '../queries/query-workflow.ts';
import { peopleByEmail } from './demo-subjects.ts';
import { readDataFile } from './read-data-file.ts';

/**
 * The living demo's queries (issue 14): manual queries at every state — open, answered, closed,
 * cancelled, reopened — on several sites, with the Korean threads monitors and coordinators write,
 * and a few system queries answered by their site, so the query list, the counts and the badges are
 * real at first look. Each step goes through the command the API uses, as the demo account who
 * would take it, dated back from today like the rest of the demo.
 */

const institutionSchema = z.enum(['01', '02', '03']);
type Institution = z.infer<typeof institutionSchema>;

const demoQueryStepSchema = z.strictObject({
  /** Days before now. */
  daysAgo: z.number().int().min(0),
  action: z.enum(QUERY_ACTIONS),
  /** 'monitor' (CRA at 01/02, DM at 03), 'site' (the site's staff), 'dm'. */
  by: z.enum(['monitor', 'site', 'dm']),
  text: z.string().optional(),
  proposedValue: z.union([z.string(), z.number()]).optional(),
});

const demoQueryPlanSchema = z.strictObject({
  /** What the query shows in the demo (its state, its age), for the reader of the file. */
  shows: z.string(),
  site: institutionSchema,
  /** Which of the site's subjects with saved vital signs (0 = the first by screening number). */
  subject: z.number().int().min(0),
  formKey: z.enum(['vitalSigns', 'demographicInfo']),
  itemKey: z.string(),
  openedDaysAgo: z.number().int().min(0),
  openedBy: z.enum(['monitor', 'dm']),
  text: z.string(),
  steps: z.array(demoQueryStepSchema),
});

/** The queries are data, kept in demo-queries.json beside this module (issue 44 item 6). */
export const demoQueryPlans = readDataFile(
  path.join(import.meta.dirname, 'demo-queries.json'),
  z.strictObject({ queries: z.array(demoQueryPlanSchema) }),
).queries;

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
  const as = peopleByEmail(db);
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
