import { createStudyRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';
import { personByEmail } from './demo-subjects.ts';
import { importDemoRedcapDesign } from './import-demo-redcap-design.ts';

/** TUBE-2027's follow-up visits after the tube insertion: 3, 6, 12 and 18 months, in days. */
const FOLLOW_UP_OFFSET_DAYS = [91, 182, 365, 548];

/**
 * The living demo's study still in design (issue 45): the administrator has created TUBE-2027 in one
 * request, as the new-study dialog sends it — its own screening-number format, no randomization, its
 * site and the data manager as its designer. The data manager then imported the design they kept in
 * REDCap (a data dictionary and its instrument–event mapping, issue 47) through the preview and its
 * confirmation, as the import page sends them, and refined it as version 1.1.0 (visit windows): the
 * study list shows its draft, the designer and its version comparison both versions, the audit trail
 * the import and the upload. Site staff do not see the study at all.
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

  // The data manager then refines the imported draft in the designer as its next version: REDCap kept
  // the follow-up visits' timing in its events, which the dictionary does not carry, so each follow-up
  // gets its window from the tube insertion (3, 6, 12 and 18 months, two weeks either way). The
  // designer's version comparison then has two versions of a study in design to show.
  const draft = await currentStudyDefinition(db, study.id);
  if (!draft) throw new Error("TUBE-2027's import left no draft");
  const [, insertion, ...followUps] = draft.definition.visits;
  if (!insertion || followUps.length !== FOLLOW_UP_OFFSET_DAYS.length)
    throw new Error(
      `TUBE-2027's draft has ${draft.definition.visits.length} visits, not the six of its event mapping`,
    );
  const dataManager = await personByEmail(db, input.dataManager);
  await replaceStudyDefinition(db, dataManager.actor, study.id, {
    ...draft.definition,
    version: '1.1.0',
    visits: draft.definition.visits.map((visit, index) => {
      const offsetDays = FOLLOW_UP_OFFSET_DAYS[index - 2];
      return offsetDays === undefined
        ? visit
        : { ...visit, window: { anchorVisit: insertion.key, offsetDays, minusDays: 14, plusDays: 14 } };
    }),
  });
}
