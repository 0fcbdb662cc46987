import { createStudyRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import { createMembership } from '../admin/memberships.ts';
import { createSite } from '../admin/sites.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's study still in design (issue 45): the administrator has created TUBE-2027 and
 * added a site and the data manager as its designer; its definition is not uploaded yet, so the
 * administration's study list shows it waiting for a document and the go-live button held back, and
 * site staff do not see it at all.
 */
export async function seedDemoStudyInDesign(
  db: Kysely<Database>,
  input: {
    administrator: string;
    dataManager: string;
    site: { code: string; name: string; institutionNumber: string };
  },
): Promise<void> {
  const administrator = await personByEmail(db, input.administrator);
  const study = await createStudy(
    db,
    administrator.actor,
    createStudyRequestSchema.parse({
      code: 'TUBE-2027',
      protocolNumber: 'CDMS-TUBE-2027-01',
      titleKo: '소아 삼출성 중이염 환기관 삽입 후 재발에 관한 다기관 관찰 연구',
      titleEn: 'Recurrence after ventilation tubes in children with otitis media with effusion',
      sponsor: '새봄병원 소아이비인후과',
      kind: 'observational',
      content:
        '환기관 삽입술을 받은 소아에서 튜브 탈락 후 18개월 동안 삼출성 중이염의 재발을 관찰합니다. 설계 중입니다.',
    }),
    administrator.principal.user.id,
  );
  await createSite(db, administrator.actor, study.id, input.site);
  const dataManager = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', input.dataManager)
    .executeTakeFirstOrThrow();
  await createMembership(db, administrator.actor, study.id, {
    userId: dataManager.id,
    role: 'DM',
    siteIds: [],
  });
}
