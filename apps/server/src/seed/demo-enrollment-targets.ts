import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { setEnrollmentTarget } from '../reports/set-enrollment-target.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's enrollment targets (issue 17): the two larger sites were contracted for more
 * randomized subjects than the study's per-site default, set by the data manager through the command
 * the API uses (audited); site 03 keeps the default, so the report shows both kinds.
 */
export const DEMO_ENROLLMENT_TARGETS: Readonly<Record<string, number>> = { '01': 15, '02': 12 };

export async function seedDemoEnrollmentTargets(
  db: Kysely<Database>,
  input: { studyId: number; siteIds: ReadonlyMap<string, number>; dataManager: string },
): Promise<void> {
  const dm = await personByEmail(db, input.dataManager);
  for (const [institution, target] of Object.entries(DEMO_ENROLLMENT_TARGETS)) {
    const siteId = input.siteIds.get(institution);
    if (siteId === undefined) continue;
    await setEnrollmentTarget(db, dm.principal, dm.actor, input.studyId, siteId, target);
  }
}
