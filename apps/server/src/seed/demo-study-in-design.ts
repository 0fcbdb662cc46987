import { createStudyRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's study still in design (issue 45): the administrator has created TUBE-2027 in one
 * request, as the new-study dialog sends it — its own screening-number format, no randomization, its
 * site and the data manager as its designer; its definition is not uploaded yet, so the
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
  await createStudy(
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
      screeningNumberFormat: 'TUBE-{site}-{seq:4}',
      randomizationEnabled: false,
      sites: [input.site],
      members: [{ email: input.dataManager, role: 'DM' }],
    }),
    administrator.principal.user.id,
  );
}
