import fs from 'node:fs';
import { createStudyRequestSchema } from '@cdms/contract';
import { HEAR_FOLLOW_UP_DOCUMENT } from '@cdms/study';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import { createMembership } from '../admin/memberships.ts';
import { createSite } from '../admin/sites.ts';
import type { Database } from '../db/schema.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's next study, in design (issue 45): the administrator has created it through the
 * command `POST /api/admin/studies` runs, added two of the demo's institutions and the data manager
 * as its designer, who has uploaded its definition document (`hear-followup.json`, a design of its
 * own: three visits and unscheduled ones, no randomization, a repeating group, a derived score). It
 * awaits the administrator's go-live signature: the admin and DM see it in their work list marked
 * "in design"; site staff do not see it at all.
 */
export async function seedDemoDesignStudy(
  db: Kysely<Database>,
  input: {
    administrator: string;
    dataManager: string;
    sites: { code: string; name: string; institutionNumber: string }[];
  },
): Promise<number> {
  const administrator = await personByEmail(db, input.administrator);
  const dataManager = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', input.dataManager)
    .executeTakeFirstOrThrow();
  const study = await createStudy(
    db,
    administrator.actor,
    createStudyRequestSchema.parse({
      code: 'HEAR-2027',
      protocolNumber: 'CDMS-HEAR-2027-01',
      titleKo: '만성 중이염 수술 후 청력 추적 관찰 연구',
      titleEn: 'Hearing follow-up after chronic otitis media surgery',
      sponsor: '한빛대학교병원 이비인후과',
      kind: 'observational',
      content:
        '고실성형술을 받은 만성 중이염 환자의 수술 전후 순음청력과 삶의 질을 12개월 동안 관찰합니다. 무작위 배정은 없습니다.',
      registeredOn: '2026-11-20',
    }),
    administrator.principal.user.id,
  );
  for (const site of input.sites) await createSite(db, administrator.actor, study.id, site);
  await createMembership(db, administrator.actor, study.id, {
    userId: dataManager.id,
    role: 'DM',
    siteIds: [],
  });
  // The data manager uploads the study's own document (not generated from code: the file is the
  // source) through the command PUT /api/studies/:id/definition runs; it awaits the go-live signature.
  const designer = await personByEmail(db, input.dataManager);
  const document = JSON.parse(fs.readFileSync(definitionDocumentPath(HEAR_FOLLOW_UP_DOCUMENT), 'utf8'));
  await replaceStudyDefinition(db, designer.actor, study.id, document);
  return study.id;
}
