import { todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { uploadAttachment } from '../attachments/upload-attachment.ts';
import type { Database } from '../db/schema.ts';
import { createGuideline } from '../guidelines/create-guideline.ts';
import { publishGuideline } from '../guidelines/publish-guideline.ts';
import { createTaskNotice } from '../task-notices/create-task-notice.ts';
import { bufferSource } from '../uploads/file-source.ts';
import { renderDemoDocumentPdf } from './demo-guideline-pdf.ts';
import { type Person, personByEmail } from './demo-subjects.ts';

function daysFrom(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A guideline published by its author with its document attached as a PDF: rendered, uploaded, saved
 * with the guideline and published, as the author would in the browser.
 */
async function publishWithPdf(
  db: Kysely<Database>,
  author: Person,
  studyId: number,
  document: Parameters<typeof renderDemoDocumentPdf>[0],
  fileName: string,
  guideline: Omit<Parameters<typeof createGuideline>[4], 'attachmentIds'>,
): Promise<void> {
  const pdf = await renderDemoDocumentPdf(document);
  const file = await uploadAttachment(db, author.actor, author.principal.user.id, studyId, {
    name: fileName,
    source: bufferSource(pdf),
  });
  const created = await createGuideline(db, author.principal, author.actor, studyId, {
    ...guideline,
    attachmentIds: [file.id],
  });
  await publishGuideline(db, author.principal, author.actor, studyId, created.id);
}

/**
 * The living demo's guidelines and task notice (issue 18), through the same commands as the API:
 * the monitor publishes the protocol (with its PDF, in its alarm period now) and the data manager the
 * CRF completion guideline (with its PDF); a lab manual stays a draft; the data manager's task notice
 * to the coordinators went out by e-mail, its messages queued for the server's worker.
 */
export async function seedDemoGuidelines(
  db: Kysely<Database>,
  input: {
    studyId: number;
    monitor: string;
    dataManager: string;
    coordinatorSiteId: number;
    investigatorSiteId: number;
  },
): Promise<void> {
  const monitor = await personByEmail(db, input.monitor);
  const dataManager = await personByEmail(db, input.dataManager);
  const today = todayInKorea();
  const { studyId } = input;

  await publishWithPdf(
    db,
    monitor,
    studyId,
    {
      title: '고막 천공 치료 임상시험계획서',
      version: '2.0',
      sections: [
        {
          heading: '연구 목적',
          lines: ['외상성 고막 천공 환자에서 시험약의 고막 재생 효과와 안전성을 평가한다.'],
        },
        {
          heading: '대상자 선정 기준',
          lines: ['만 19세 이상 성인', '외상 후 14일 이내 내원', '천공 크기가 고막 면적의 50% 이하'],
        },
        { heading: '방문 일정', lines: ['V1 선별, V2 무작위 배정, V3–V5 추적 관찰(2주 간격)'] },
      ],
    },
    '임상시험계획서_v2.0.pdf',
    {
      guideType: 'protocol',
      title: '고막 천공 치료 임상시험계획서',
      contentHtml:
        '<p>개정된 임상시험계획서(v2.0)입니다. 선정 기준과 방문 일정이 바뀌었으니 <strong>모든 연구자는 첨부 PDF를 확인</strong>해 주세요.</p><ul><li>선정 기준: 천공 크기 기준 명확화</li><li>방문 일정: V4 허용 범위 ±3일</li></ul>',
      version: '2.0',
      effectiveDate: daysFrom(today, -14),
      alarmStart: daysFrom(today, -14),
      alarmEnd: daysFrom(today, 14),
    },
  );

  await publishWithPdf(
    db,
    dataManager,
    studyId,
    {
      title: 'CRF 작성 지침',
      version: '1.1',
      sections: [
        {
          heading: '공통 원칙',
          lines: ['날짜는 YYYY-MM-DD로 입력합니다.', '모르는 값은 비워 두지 말고 UK로 표시합니다.'],
        },
        { heading: '이상반응', lines: ['중대한 이상반응은 알게 된 때로부터 24시간 이내에 입력합니다.'] },
      ],
    },
    'CRF_작성지침_v1.1.pdf',
    {
      guideType: 'crf_guideline',
      title: 'CRF 작성 지침',
      contentHtml: '<p>증례기록서 입력 시 지켜야 할 원칙입니다. 자세한 내용은 첨부 PDF를 참고하세요.</p>',
      version: '1.1',
      effectiveDate: daysFrom(today, -60),
      alarmStart: null,
      alarmEnd: null,
    },
  );

  await createGuideline(db, dataManager.principal, dataManager.actor, studyId, {
    guideType: 'lab_manual',
    title: '검체 처리 매뉴얼 (초안)',
    contentHtml: '<p>혈액 검체 채취·원심분리·보관 절차 초안입니다. 검토 후 게시 예정입니다.</p>',
    version: '0.9',
    effectiveDate: daysFrom(today, 7),
    alarmStart: null,
    alarmEnd: null,
    attachmentIds: [],
  });

  await createTaskNotice(db, dataManager.principal, dataManager.actor, studyId, {
    alarmType: 'data_entry',
    title: '방문 2 데이터 입력 마감 안내',
    content: '중간 분석을 위해 이번 주 금요일까지 방문 2(V2)의 입력을 마쳐 주세요.',
    roles: ['CRC'],
    siteIds: [input.coordinatorSiteId],
    periodStart: daysFrom(today, -2),
    periodEnd: daysFrom(today, 5),
    email: true,
    sms: false,
    attachmentId: null,
  });
  // Its e-mails wait in the outbox like every other: the server's worker sends them (or records "not
  // sent" without a mail server). No delivery state is written by hand (issue 43 item 9).

  // A monitoring visit announced to site 01's investigators by e-mail and text message. The demo
  // accounts have no phone numbers, so the text messages are recorded "not sent" with the reason, and
  // the notice shows as failed: the alarm log and the task-notice list have each state to show.
  await createTaskNotice(db, monitor.principal, monitor.actor, studyId, {
    alarmType: 'schedule',
    title: '다음 주 모니터링 방문 일정 안내',
    content: '다음 주 화요일 오전 10시에 근거 문서 확인(SDV)을 위해 방문합니다. 원자료를 준비해 주세요.',
    roles: ['PI', 'SI'],
    siteIds: [input.investigatorSiteId],
    periodStart: daysFrom(today, -1),
    periodEnd: daysFrom(today, 6),
    email: true,
    sms: true,
    attachmentId: null,
  });
}
