import { createSubjectRequestSchema, saveFormRequestSchema, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { loadPrincipal, type Principal } from '../auth/principal.ts';
import { createSubject } from '../data-entry/create-subject.ts';
import { saveForm } from '../data-entry/save-form.ts';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';
import { uploadFormPhoto } from '../form-photos/upload-form-photo.ts';
import { generateRandomizationLists, randomizeSubject } from '../randomization/randomization.ts';
import { signCasebook } from '../signatures/sign-casebook.ts';
import { type DemoAction, type DemoStep, demoCasebookSteps } from './demo-casebooks.ts';
import { drawEardrumPhoto, eardrumTracing } from './demo-eardrum-photo.ts';
import { type DemoSubjectPlan, demoSubjectPlans, type InstitutionNumber } from './demo-subject-plans.ts';

/** Slots per site in the demo's allocation lists (the CLI's usual size). */
const DEMO_SLOTS_PER_SITE = 50;
/** The allocation lists' seed: fixed, so the demo's groups are the same on every first start. */
const DEMO_RANDOMIZATION_SEED = 'TMP-2026-living-demo';

/** Who works on the demo subjects of each site: the coordinator enters data, the investigator decides. */
export interface DemoSiteTeam {
  staff: string;
  investigator: string;
}

export interface DemoSubjectsInput {
  studyId: number;
  /** Site id per institution number. */
  siteIds: ReadonlyMap<string, number>;
  teams: Readonly<Record<InstitutionNumber, DemoSiteTeam>>;
  /** The data manager who generates the allocation lists. */
  dataManager: string;
  /** The PI's password, entered again to sign (the demo accounts' password). */
  signingPassword: string;
}

export interface Person {
  principal: Principal;
  actor: AuditActor;
}

/**
 * The seed signs nobody in: the commands read who the user is and what they may do from the
 * principal, never from its session, so the principal carries this stand-in, which is never stored.
 */
function noSession(user: UserRow, userAgent: string): SessionRow {
  const now = new Date();
  return {
    id_hash: '',
    user_id: user.id,
    csrf_token: '',
    created_at: now,
    last_seen_at: now,
    idle_expires_at: now,
    absolute_expires_at: now,
    ip: '',
    user_agent: userAgent,
  };
}

/**
 * A user as the commands see one acting, without signing in: the principal with a stand-in
 * session, and the actor as the API records a request (actorOf), the request id naming the caller
 * (the seed, the benchmark's template builder).
 */
export async function actingAs(db: Kysely<Database>, user: UserRow, requestId: string): Promise<Person> {
  const principal = await loadPrincipal(db, user, noSession(user, requestId));
  return {
    principal,
    actor: { userId: user.id, label: user.email, ip: '', requestId, studyRoles: principal.studies },
  };
}

/** A demo account, by its e-mail, as the demo's commands act for it. */
export async function personByEmail(db: Kysely<Database>, email: string): Promise<Person> {
  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  return actingAs(db, user, 'demo-seed');
}

/** personByEmail for a seed step that acts as the same few accounts many times: each looked up once. */
export function peopleByEmail(db: Kysely<Database>): (email: string) => Promise<Person> {
  const people = new Map<string, Person>();
  return async (email) => {
    let found = people.get(email);
    if (!found) {
      found = await personByEmail(db, email);
      people.set(email, found);
    }
    return found;
  };
}

/**
 * The living demo: the subjects of demo-subject-plans.ts entered day by day in calendar order (so
 * screening and randomization numbers follow the dates), each step through the command the API
 * uses — registration, form saves with their checks, queries and statuses, randomization from a
 * concealed list, the PI's signature — as the demo account of the subject's site. Returns how many
 * subjects it registered.
 */
export async function seedDemoSubjects(db: Kysely<Database>, input: DemoSubjectsInput): Promise<number> {
  const { studyId } = input;
  const today = todayInKorea();
  const as = peopleByEmail(db);

  const dataManager = await as(input.dataManager);
  await generateRandomizationLists(db, dataManager.actor, studyId, {
    perSite: DEMO_SLOTS_PER_SITE,
    seed: DEMO_RANDOMIZATION_SEED,
  });

  const timeline = demoSubjectPlans
    .flatMap((plan, subject) =>
      demoCasebookSteps(plan, today).map((step, order) => ({ ...step, plan, subject, order })),
    )
    .sort((a, b) => a.date.localeCompare(b.date) || a.subject - b.subject || a.order - b.order);

  const subjectIds = new Map<number, number>();
  const versions = new Map<string, number>();
  for (const step of timeline) {
    const siteTeam = input.teams[step.plan.site];
    const who = await as(byInvestigator(step.action) ? siteTeam.investigator : siteTeam.staff);
    await perform(db, who, step, {
      studyId,
      siteId: siteIdOf(input, step.plan),
      subjectIds,
      versions,
      signingPassword: input.signingPassword,
    });
  }
  return subjectIds.size;
}

/**
 * A moment on a demo subject's day (consent, a visit; UTC+9): mid-morning, a minute apart per subject so the
 * order of the day's registrations stays visible; never later than now (a consent given today).
 */
function registrationTime(consentDate: string, subject: number): Date {
  const planned = new Date(`${consentDate}T10:00:00+09:00`).getTime() + subject * 60_000;
  return new Date(Math.min(planned, Date.now()));
}

function byInvestigator(action: DemoAction): boolean {
  return action.kind === 'sign' || (action.kind === 'save' && action.byInvestigator === true);
}

function siteIdOf(input: DemoSubjectsInput, plan: DemoSubjectPlan): number {
  const siteId = input.siteIds.get(plan.site);
  if (siteId === undefined) throw new Error(`no demo site ${plan.site}`);
  return siteId;
}

interface PerformContext {
  studyId: number;
  siteId: number;
  /** Database id per plan index. */
  subjectIds: Map<number, number>;
  /** Current version per subject form, as a person's screen would hold it. */
  versions: Map<string, number>;
  signingPassword: string;
}

async function perform(
  db: Kysely<Database>,
  who: Person,
  step: DemoStep & { subject: number },
  context: PerformContext,
): Promise<void> {
  const { studyId } = context;
  const { action } = step;
  if (action.kind === 'register') {
    // Through the request schema, as the API parses the body.
    const request = createSubjectRequestSchema.parse({
      siteId: context.siteId,
      consentDate: action.consentDate,
      initials: action.initials,
    });
    // Registered on the consent day, as a site does; the story is counted back from today, so the
    // registration date is given rather than taken from the clock.
    const created = await createSubject(db, who.principal, who.actor, studyId, request, {
      registeredAt: registrationTime(action.consentDate, step.subject),
    });
    context.subjectIds.set(step.subject, created.id);
    context.versions.set(`${created.id}.consentScreening.consentScreening`, 1);
    return;
  }
  const subjectId = context.subjectIds.get(step.subject);
  if (subjectId === undefined) throw new Error('a demo subject acted on before registration');
  switch (action.kind) {
    case 'save': {
      const key = `${subjectId}.${action.visitKey}.${action.formKey}`;
      let values = action.values;
      if (action.photo) {
        // As a coordinator does it: the photo first (converted, hashed), then the form with it and its tracing.
        const uploaded = await uploadFormPhoto(db, who.principal, who.actor, {
          studyId,
          subjectId,
          visitKey: action.visitKey,
          formKey: action.formKey,
          photo: await drawEardrumPhoto(action.photo),
        });
        values = { ...values, photo: uploaded.reference, tracing: eardrumTracing(action.photo) };
      }
      const request = saveFormRequestSchema.parse({
        values,
        version: context.versions.get(key) ?? 0,
        reasons: action.reasons ?? {},
      });
      const saved = await saveForm(db, who.principal, who.actor, {
        studyId,
        subjectId,
        visitKey: action.visitKey,
        formKey: action.formKey,
        request,
        // Entered on the day of the story (central monitoring's data-entry lag reads it).
        enteredAt: registrationTime(step.date, step.subject),
      });
      context.versions.set(key, saved.instance.version);
      return;
    }
    case 'randomize':
      // Randomized on the V2 day of the story (the enrollment report's months), not on seeding day.
      await randomizeSubject(db, who.principal, who.actor, studyId, subjectId, {
        assignedAt: registrationTime(step.date, step.subject),
      });
      return;
    case 'sign':
      await signCasebook(db, who.principal, who.actor, {
        studyId,
        subjectId,
        password: context.signingPassword,
      });
      return;
  }
}
