import fs from 'node:fs';
import { createStudyRequestSchema } from '@cdms/contract';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import { createStudy } from '../../../apps/server/src/admin/create-study.ts';
import { createMembership } from '../../../apps/server/src/admin/memberships.ts';
import { createSite } from '../../../apps/server/src/admin/sites.ts';
import type { Database } from '../../../apps/server/src/db/schema.ts';
import { generateRandomizationLists } from '../../../apps/server/src/randomization/randomization.ts';
import { rebuildReadModel } from '../../../apps/server/src/read-model/rebuild-read-model.ts';
import { peopleByEmail } from '../../../apps/server/src/seed/demo-subjects.ts';
import { definitionDocumentPath } from '../../../apps/server/src/studies/read-definition-document.ts';
import { goLive } from '../../../apps/server/src/study-design/go-live.ts';
import { replaceStudyDefinition } from '../../../apps/server/src/study-design/replace-study-definition.ts';
import {
  BENCH_PASSWORD,
  type BenchStudy,
  loadBenchStudy,
  READER_EMAIL,
  type SiteTeam,
} from './bench-study.ts';
import { copyTemplates, slotsFor } from './build-bench-study.ts';
import { templatePlans } from './casebook-steps.ts';
import { loadTemplates } from './clone-subjects.ts';

// The other studies of the many-studies measurement (issue 45 item 6): beside the bench study, more
// studies in the same database, each made as an administrator makes one — a `studies` row created in
// design, its own sites, its members, the bench study's definition document uploaded and the study
// taken live with the go-live signature — then filled with copies of the bench study's templates by
// the bulk loader. The same definition, so that a copy's forms, checks and signatures are valid in
// its new study as they were in the template's.

const ADMIN_EMAIL = 'admin@demo.cdms';

export interface OtherStudiesReport {
  studies: number;
  subjects: number;
  /** Seconds to create the studies (sites, members, definition, go-live, allocation lists). */
  createSeconds: number;
  copySeconds: number;
  /** Statistics, the read model of the new subjects, then VACUUM ANALYZE. */
  readModelSeconds: number;
}

/** The code of the n-th study (2, 3, …; the bench study is the first). */
export const otherStudyCode = (number: number) => `BENCH-${String(number).padStart(2, '0')}`;

/**
 * Adds `studies` studies of `subjectsPerStudy` subjects each to a database holding the bench study
 * (buildBenchStudy), each with `siteCount` sites. The bench study's coordinators and investigators
 * are the new studies' too (CRC and PI at the site of the same institution number), and the data
 * manager who reads in the scenarios is a member of every one: a data manager of many studies is
 * the case the measurement is about.
 */
export async function buildOtherStudies(
  db: Kysely<Database>,
  input: { studies: number; subjectsPerStudy: number; siteCount: number; log?: (message: string) => void },
): Promise<OtherStudiesReport> {
  const log = input.log ?? (() => {});
  const seconds = (since: number) => (performance.now() - since) / 1000;
  const benchStudy = await loadBenchStudy(db);
  const templates = await loadTemplates(db, benchStudy, templatePlans.length);
  const document = JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8'));

  let createSeconds = 0;
  let copySeconds = 0;
  const studyIds: number[] = [];
  for (let index = 0; index < input.studies; index += 1) {
    const code = otherStudyCode(index + 2);
    let started = performance.now();
    const study = await createOtherStudy(db, {
      code,
      document,
      siteCount: input.siteCount,
      subjects: input.subjectsPerStudy,
      benchStudy,
    });
    studyIds.push(study.studyId);
    createSeconds += seconds(started);
    started = performance.now();
    await copyTemplates(db, {
      studyId: study.studyId,
      templates,
      teams: study.teams,
      firstCopy: 0,
      copies: input.subjectsPerStudy,
    });
    copySeconds += seconds(started);
    log(`  ${code}: ${input.subjectsPerStudy} copies in ${seconds(started).toFixed(0)} s`);
  }

  // As buildBenchStudy after its copies: statistics first (the rebuild's reads are planned with
  // them), the read model of the copies (the bulk loader writes around the commands that keep it),
  // then what autovacuum would do after such growth.
  const started = performance.now();
  await sql`analyze`.execute(db);
  for (const studyId of studyIds) await rebuildReadModel(db, { studyId });
  await sql`vacuum analyze`.execute(db);
  const readModelSeconds = seconds(started);
  return {
    studies: input.studies,
    subjects: input.studies * input.subjectsPerStudy,
    createSeconds,
    copySeconds,
    readModelSeconds,
  };
}

/**
 * One study through the commands the API runs: created in design by the administrator, sites
 * 01…`siteCount`, the bench accounts as its site staff and the data manager as its DM, the
 * definition document uploaded by the data manager, the go-live signed by the administrator, the
 * allocation lists generated (room for `subjects`). Returns it as the bulk loader needs it: its sites with their teams.
 */
async function createOtherStudy(
  db: Kysely<Database>,
  input: { code: string; document: unknown; siteCount: number; subjects: number; benchStudy: BenchStudy },
): Promise<BenchStudy> {
  const people = peopleByEmail(db);
  const administrator = await people(ADMIN_EMAIL);
  const study = await createStudy(
    db,
    administrator.actor,
    createStudyRequestSchema.parse({
      code: input.code,
      protocolNumber: `${input.code}-01`,
      titleKo: `벤치마크 임상시험 ${input.code}`,
      titleEn: `Benchmark study ${input.code}`,
      sponsor: '',
      kind: 'drug',
      content: '',
    }),
    administrator.principal.user.id,
  );
  const teams: SiteTeam[] = [];
  for (let number = 1; number <= input.siteCount; number += 1) {
    const institutionNumber = String(number).padStart(2, '0');
    const benchTeam = input.benchStudy.teams.find((team) => team.institutionNumber === institutionNumber);
    if (!benchTeam) throw new Error(`the bench study has no site ${institutionNumber}`);
    const site = await createSite(db, administrator.actor, study.id, {
      code: `${input.code}-${institutionNumber}`,
      name: `${input.code} 병원 ${institutionNumber}`,
      institutionNumber,
    });
    for (const [role, user] of [
      ['CRC', benchTeam.coordinator],
      ['PI', benchTeam.investigator],
    ] as const)
      await createMembership(db, administrator.actor, study.id, {
        userId: user.id,
        role,
        siteIds: [site.id],
      });
    teams.push({ ...benchTeam, siteId: site.id });
  }
  const reader = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', READER_EMAIL)
    .executeTakeFirstOrThrow();
  await createMembership(db, administrator.actor, study.id, { userId: reader.id, role: 'DM', siteIds: [] });

  // The principals as they are now, members of the new study.
  const now = peopleByEmail(db);
  const designer = await now(READER_EMAIL);
  await replaceStudyDefinition(db, designer.actor, study.id, input.document);
  const approver = await now(ADMIN_EMAIL);
  await goLive(db, approver.principal, approver.actor, study.id, { password: BENCH_PASSWORD });
  await generateRandomizationLists(db, administrator.actor, study.id, {
    perSite: slotsFor(input.subjects, input.siteCount),
    seed: `cdms-bench-${input.code}`,
  });
  return { studyId: study.id, teams };
}
