import { createStudyRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createStudy } from '../admin/create-study.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { commentOnDesignReview } from '../study-design/comment-on-design-review.ts';
import { replaceStudyDefinition } from '../study-design/replace-study-definition.ts';
import { requestDesignReview } from '../study-design/request-design-review.ts';
import { saveDesignDraft } from '../study-design/save-design-draft.ts';
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
 * the import and the upload. Site staff do not see the study at all. The data manager is now at work on
 * the next version in the designer (issue 48 items 6 and 7): a saved draft that adds the date the tube
 * came out to the follow-up form, sent for review, on which the administrator has left a comment.
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

  await seedDraftUnderReview(db, { studyId: study.id, administrator, dataManager });
}

/** The follow-up form's item whose section the draft's new item joins. */
const TUBE_STATUS_ITEM = 'tubeStatusL';
const TUBE_OUT_DATE_ITEM = 'tubeOutDate';

/**
 * The designer's draft of TUBE-2027's 1.2.0, as its autosave leaves it: one saved revision that adds the
 * date a tube was found out (the study's end point needs it) after the tube status, a review asked for on
 * that revision, and the administrator's comment on the new item. The activity panel, the review and the
 * element comment show at first look; the approval is left for a newcomer to give.
 */
async function seedDraftUnderReview(
  db: Kysely<Database>,
  input: {
    studyId: number;
    administrator: Awaited<ReturnType<typeof personByEmail>>;
    dataManager: Awaited<ReturnType<typeof personByEmail>>;
  },
): Promise<void> {
  const published = await currentStudyDefinition(db, input.studyId);
  if (!published) throw new Error('TUBE-2027 has no published version to draft from');
  const followUp = published.definition.forms.find((form) =>
    form.sections.some((section) => section.items.some((item) => item.key === TUBE_STATUS_ITEM)),
  );
  if (!followUp) throw new Error(`TUBE-2027 has no form with the item ${TUBE_STATUS_ITEM}`);
  const forms = published.definition.forms.map((form) =>
    form !== followUp
      ? form
      : {
          ...form,
          sections: form.sections.map((section) => {
            const at = section.items.findIndex((item) => item.key === TUBE_STATUS_ITEM);
            if (at < 0) return section;
            const items = [...section.items];
            items.splice(at + 1, 0, {
              key: TUBE_OUT_DATE_ITEM,
              type: 'date',
              label: { ko: '환기관 탈락 확인일', en: 'Date the tube was found out' },
              help: {
                ko: '환기관이 빠진 것을 처음 확인한 날입니다. 빠지지 않았으면 비워 둡니다.',
                en: 'The day the tube was first seen to have come out. Leave empty while it is in place.',
              },
            });
            return { ...section, items };
          }),
        },
  );
  const { principal, actor } = input.dataManager;
  const saved = await saveDesignDraft(
    db,
    principal,
    actor,
    input.studyId,
    { baseRevision: 0, definition: { ...published.definition, version: '1.2.0', forms } },
    'ko',
  );
  const { reviewId } = await requestDesignReview(db, principal, actor, input.studyId, saved.revision, 'ko');
  await commentOnDesignReview(
    db,
    input.administrator.principal,
    input.administrator.actor,
    input.studyId,
    reviewId,
    {
      element: `form:${followUp.key}/item:${TUBE_OUT_DATE_ITEM}`,
      text: '양쪽 귀에 환기관을 넣은 아이가 많습니다. 우측·좌측 탈락일을 따로 받는 편이 분석에 맞겠습니다.',
    },
  );
}
