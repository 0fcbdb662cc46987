import type { Kysely } from 'kysely';
import { createMembership } from '../../../apps/server/src/admin/memberships.ts';
import { createSite } from '../../../apps/server/src/admin/sites.ts';
import { createUser } from '../../../apps/server/src/admin/users.ts';
import { systemActor } from '../../../apps/server/src/audit/audit-events.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import { generateRandomizationLists } from '../../../apps/server/src/randomization/randomization.ts';
import { DEMO_PASSWORD, seedDemoData } from '../../../apps/server/src/seed/demo-seed.ts';

/** Every bench account's password: the demo's, so one password signs in anyone. */
export const BENCH_PASSWORD = DEMO_PASSWORD;
/** Reads run as the demo's data manager: every site, every read-out, the export. */
export const READER_EMAIL = 'dm@demo.cdms';
export const DEFAULT_SITE_COUNT = 20;

/** The coordinator (enters data) and investigator (eligibility, end of study, signature) of one site. */
export interface SiteTeam {
  siteId: number;
  institutionNumber: string;
  coordinator: { id: number; email: string; name: string };
  investigator: { id: number; email: string; name: string };
}

export interface BenchStudy {
  studyId: number;
  /** In institution-number order: 01, 02, … */
  teams: SiteTeam[];
}

export const coordinatorEmail = (institutionNumber: string) => `crc${institutionNumber}@bench.cdms`;
export const investigatorEmail = (institutionNumber: string) => `pi${institutionNumber}@bench.cdms`;

/**
 * The study the benchmark fills, made through the same commands as the API: the demo study with its
 * three sites and accounts (seedDemoData without subjects), sites 04… up to `siteCount`, one
 * coordinator (CRC) and one investigator (PI) account per site, and allocation lists big enough for
 * every subject the run will randomize (`slotsPerSite`).
 */
export async function prepareBenchStudy(
  db: Kysely<Database>,
  input: { siteCount: number; slotsPerSite: number },
): Promise<BenchStudy> {
  const actor = systemActor('bench');
  const seeded = await seedDemoData(db);
  if (!seeded) throw new Error('the bench database is not empty');
  const studyId = (await demoStudySites(db)).studyId;
  for (let number = 4; number <= input.siteCount; number += 1) {
    const institutionNumber = String(number).padStart(2, '0');
    await createSite(db, actor, studyId, {
      code: `BEN-${institutionNumber}`,
      name: `벤치병원 ${institutionNumber}`,
      institutionNumber,
    });
  }
  const { sites } = await demoStudySites(db);
  for (const site of sites) {
    for (const [role, email, name] of [
      ['CRC', coordinatorEmail(site.institution_number), `코디${site.institution_number}`],
      ['PI', investigatorEmail(site.institution_number), `연구자${site.institution_number}`],
    ] as const) {
      const user = await createUser(db, actor, {
        email,
        name,
        contact: '',
        locale: 'ko',
        isAdmin: false,
        password: BENCH_PASSWORD,
      });
      await createMembership(db, actor, studyId, { userId: user.id, role, siteIds: [site.id] });
    }
  }
  await generateRandomizationLists(db, actor, studyId, {
    perSite: input.slotsPerSite,
    seed: 'cdms-bench',
  });
  return loadBenchStudy(db);
}

/** The prepared study as a later run finds it (growing a database built by an earlier size). */
export async function loadBenchStudy(db: Kysely<Database>): Promise<BenchStudy> {
  const { studyId, sites } = await demoStudySites(db);
  const users = await db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('email', 'like', '%@bench.cdms')
    .execute();
  const byEmail = new Map(users.map((user) => [user.email, user]));
  const teams = sites.map((site) => {
    const coordinator = byEmail.get(coordinatorEmail(site.institution_number));
    const investigator = byEmail.get(investigatorEmail(site.institution_number));
    if (!coordinator || !investigator) throw new Error(`site ${site.institution_number} has no bench team`);
    return { siteId: site.id, institutionNumber: site.institution_number, coordinator, investigator };
  });
  return { studyId, teams };
}

/** The demo study's id and its sites by institution number. */
async function demoStudySites(db: Kysely<Database>) {
  const study = await db
    .selectFrom('studies')
    .select('id')
    .where('code', '=', 'TMP-2026')
    .executeTakeFirstOrThrow();
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', study.id)
    .orderBy('institution_number')
    .execute();
  return { studyId: study.id, sites };
}
