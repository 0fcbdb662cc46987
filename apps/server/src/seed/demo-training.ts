import type { TrainingModuleRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { createMembership } from '../admin/memberships.ts';
import { createUser } from '../admin/users.ts';
import { uploadAttachment } from '../attachments/upload-attachment.ts';
import type { Database } from '../db/schema.ts';
import { completeTraining } from '../training/complete-training.ts';
import { saveTrainingModule } from '../training/save-training-module.ts';
import { submitTrainingQuiz } from '../training/submit-training-quiz.ts';
import { updateTrainingSettings } from '../training/update-training-settings.ts';
import { bufferSource } from '../uploads/file-source.ts';
import { renderDemoDocumentPdf } from './demo-guideline-pdf.ts';
import { personByEmail } from './demo-subjects.ts';

/** The living demo's two training modules (issue 18 item 5), as the data manager writes them. */
export const demoTrainingModules = {
  ecrf: {
    title: 'eCRF 입력 교육',
    contentHtml:
      '<h2>eCRF 입력 원칙</h2><p>원자료(source document)에 기록된 값만 입력하고, 방문일로부터 3일 이내에 입력합니다.</p>' +
      '<ul><li>이미 저장한 값을 바꿀 때에는 변경 사유를 남깁니다.</li><li>시스템 쿼리와 모니터 쿼리에는 근거를 들어 답변합니다.</li>' +
      '<li>무작위 배정은 적격성 평가를 저장한 뒤에만 할 수 있습니다.</li></ul>' +
      '<p>모든 입력과 변경은 감사 추적에 기록됩니다.</p>',
    roles: ['PI', 'SI', 'CRC'],
    state: 'published',
    attachmentIds: [] as string[],
    quiz: {
      passMark: 60,
      questions: [
        {
          text: '저장한 값을 수정할 때 반드시 필요한 것은?',
          options: ['변경 사유', '모니터의 승인', '새 대상자 등록'],
          answer: 0,
        },
        {
          text: 'eCRF에 입력하는 값의 근거는?',
          options: ['기억', '원자료(source document)', '다른 대상자의 값'],
          answer: 1,
        },
        {
          text: '무작위 배정을 할 수 있는 때는?',
          options: ['동의서 서명 전', '언제든지', '적격성 평가 저장 후'],
          answer: 2,
        },
      ],
    },
  },
  monitoring: {
    title: '모니터링 교육',
    contentHtml:
      '<h2>모니터링 절차</h2><p>방문 전 쿼리와 미입력 CRF를 확인하고, 방문 중 원자료 검증(SDV)을 계획에 따라 수행합니다.</p>' +
      '<p>발견한 문제는 쿼리로 남기고 기관 담당자의 답변을 확인한 뒤 종료합니다.</p>',
    roles: ['CRA'],
    state: 'published',
    attachmentIds: [] as string[],
    quiz: null,
  },
} satisfies Record<string, TrainingModuleRequest>;

/**
 * Issue 51 item 5: the coordinator who joined last, at site 02, and has not done the required eCRF
 * training yet — signed in, they can read the subjects but not enter data (the banner, the way to the
 * training page).
 */
export const demoNewcomer = { email: 'crc-new@demo.cdms', name: '신코디', role: 'CRC', site: '02' } as const;

/**
 * The data manager writes and publishes both modules through the API's command (audited); the site
 * staff who enter the demo's data pass the eCRF quiz and the monitor completes the monitoring module.
 * Then (issue 51) the data manager turns the gate on — data entry requires the required training —
 * and a new coordinator joins site 02 without having trained: the completion matrix shows them
 * owing the module, and the server refuses their data entry until they complete it.
 */
export async function seedDemoTraining(
  db: Kysely<Database>,
  input: {
    studyId: number;
    dataManager: string;
    trained: readonly string[];
    monitor: string;
    password: string;
  },
): Promise<void> {
  const as = (email: string) => personByEmail(db, email);
  const dm = await as(input.dataManager);
  // The eCRF course comes with a handout to print (a generated PDF, like the guidelines' documents).
  const handout = await uploadAttachment(db, dm.actor, dm.principal.user.id, input.studyId, {
    name: 'eCRF_입력_교육_자료.pdf',
    source: bufferSource(
      await renderDemoDocumentPdf({
        title: 'eCRF 입력 교육 자료',
        version: '1.0',
        sections: [
          {
            heading: '저장과 수정',
            lines: ['저장한 값을 고칠 때는 수정 사유를 입력합니다.', '모든 변경은 감사 추적에 남습니다.'],
          },
          {
            heading: '쿼리 답변',
            lines: ['쿼리에는 근거 문서를 확인한 뒤 답변하고, 필요하면 값을 수정합니다.'],
          },
          { heading: '방문 허용 범위', lines: ['방문일이 허용 범위를 벗어나면 프로토콜 이탈로 보고됩니다.'] },
        ],
      }),
    ),
  });
  const ecrf = await saveTrainingModule(db, dm.principal, dm.actor, {
    studyId: input.studyId,
    request: { ...demoTrainingModules.ecrf, attachmentIds: [handout.id] },
  });
  const monitoring = await saveTrainingModule(db, dm.principal, dm.actor, {
    studyId: input.studyId,
    request: demoTrainingModules.monitoring,
  });
  const answers = demoTrainingModules.ecrf.quiz.questions.map((question) => question.answer);
  for (const email of input.trained) {
    const member = await as(email);
    await submitTrainingQuiz(db, member.principal, member.actor, input.studyId, ecrf.id, { answers });
  }
  const monitor = await as(input.monitor);
  await completeTraining(db, monitor.principal, monitor.actor, input.studyId, monitoring.id);
  await updateTrainingSettings(db, dm.principal, dm.actor, input.studyId, { gatesDataEntry: true });
  const site = await db
    .selectFrom('sites')
    .select('id')
    .where('study_id', '=', input.studyId)
    .where('institution_number', '=', demoNewcomer.site)
    .executeTakeFirstOrThrow();
  const newcomer = await createUser(db, dm.actor, {
    email: demoNewcomer.email,
    name: demoNewcomer.name,
    contact: '',
    locale: 'ko',
    isAdmin: false,
    password: input.password,
  });
  await createMembership(db, dm.actor, input.studyId, {
    userId: newcomer.id,
    role: demoNewcomer.role,
    siteIds: [site.id],
  });
}
