import { createStudyRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';
import { importDemoRedcapDesign } from './import-demo-redcap-design.ts';

/**
 * The living demo's study still in design (issue 45): the administrator has created TUBE-2027 in one
 * request, as the new-study dialog sends it — its own screening-number format, no randomization, its
 * site and the data manager as its designer. The data manager then imported the design they kept in
 * REDCap (a data dictionary and its instrument–event mapping, issue 47) through the preview and its
 * confirmation, as the import page sends them: the study list shows its first draft, the definition
 * dialog its version, the audit trail the upload. Site staff do not see the study at all.
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
      screeningNumberFormat: 'TUBE-{site}-{seq:4}',
      randomizationEnabled: false,
      sites: [input.site],
      members: [{ email: input.dataManager, role: 'DM' }],
    }),
    administrator.principal.user.id,
  );
  await importDemoRedcapDesign(db, { studyId: study.id, dataManager: input.dataManager, name: 'tube-2027' });
}
