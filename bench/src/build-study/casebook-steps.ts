import { createSubjectRequestSchema, saveFormRequestSchema, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createSubject } from '../../../apps/server/src/data-entry/create-subject.ts';
import { saveForm } from '../../../apps/server/src/data-entry/save-form.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import { randomizeSubject } from '../../../apps/server/src/randomization/randomization.ts';
import { type DemoStep, demoCasebookSteps } from '../../../apps/server/src/seed/demo-casebooks.ts';
import { type DemoSubjectPlan, demoSubjectPlans } from '../../../apps/server/src/seed/demo-subject-plans.ts';
import { actingAs, type Person } from '../../../apps/server/src/seed/demo-subjects.ts';
import { signCasebook } from '../../../apps/server/src/signatures/sign-casebook.ts';
import { BENCH_PASSWORD, type SiteTeam } from './bench-study.ts';

// Runs casebooks through the API's own commands (createSubject, saveForm, randomizeSubject,
// signCasebook), as the demo seed does, but at any site of the bench study with that site's team.

/**
 * The bench's template subjects: the living demo's 31 plans (every stage, AEs, corrections, system
 * queries, signatures). A signature followed by a change ('signedThenChanged') becomes a plain
 * signature: the hash of an invalidated signature is of data that no longer exist, so a copy could
 * not be given the hash the commands would have computed for it.
 */
export const templatePlans: DemoSubjectPlan[] = demoSubjectPlans.map((plan) => ({
  ...plan,
  twists: plan.twists?.map((twist) => (twist === 'signedThenChanged' ? 'signed' : twist)),
}));

export class People {
  private readonly cache = new Map<number, Person>();
  constructor(private readonly db: Kysely<Database>) {}

  async byId(userId: number): Promise<Person> {
    let found = this.cache.get(userId);
    if (!found) {
      const user = await this.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      found = await actingAs(this.db, user, 'bench');
      this.cache.set(userId, found);
    }
    return found;
  }
}

/** The steps of one template plan: the same on every call of the same Korean day. */
export function stepsOf(plan: DemoSubjectPlan, initials = plan.initials): DemoStep[] {
  return demoCasebookSteps(plan, todayInKorea()).map((step) =>
    step.action.kind === 'register' ? { ...step, action: { ...step.action, initials } } : step,
  );
}

/** One subject's casebook in progress: its database id and the version of each form as a screen holds it. */
export class Casebook {
  subjectId: number | undefined;
  private readonly versions = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly people: People,
    private readonly studyId: number,
    private readonly team: SiteTeam,
  ) {}

  async perform(step: DemoStep): Promise<void> {
    const { action } = step;
    const byInvestigator =
      action.kind === 'sign' || (action.kind === 'save' && action.byInvestigator === true);
    const who = await this.people.byId(byInvestigator ? this.team.investigator.id : this.team.coordinator.id);
    if (action.kind === 'register') {
      const request = createSubjectRequestSchema.parse({
        siteId: this.team.siteId,
        consentDate: action.consentDate,
        initials: action.initials,
      });
      const created = await createSubject(this.db, who.principal, who.actor, this.studyId, request);
      this.subjectId = created.id;
      this.versions.set('consentScreening.consentScreening', 1);
      return;
    }
    const subjectId = this.subjectId;
    if (subjectId === undefined) throw new Error('a casebook step before registration');
    switch (action.kind) {
      case 'save': {
        const key = `${action.visitKey}.${action.formKey}`;
        const request = saveFormRequestSchema.parse({
          values: action.values,
          version: this.versions.get(key) ?? 0,
          reasons: action.reasons ?? {},
        });
        const saved = await saveForm(this.db, who.principal, who.actor, {
          studyId: this.studyId,
          subjectId,
          visitKey: action.visitKey,
          formKey: action.formKey,
          request,
        });
        this.versions.set(key, saved.instance.version);
        return;
      }
      case 'randomize':
        await randomizeSubject(this.db, who.principal, who.actor, this.studyId, subjectId);
        return;
      case 'sign':
        await signCasebook(this.db, who.principal, who.actor, {
          studyId: this.studyId,
          subjectId,
          password: BENCH_PASSWORD,
        });
        return;
    }
  }
}
