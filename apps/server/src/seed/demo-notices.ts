import { noticeWriteSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createNotice } from '../notices/notices.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's study notices (issue 43 item 9: the demo had none), written by the data manager
 * through `createNotice`, the command `POST /api/studies/:id/notices` runs, with the body parsed by the
 * route's own schema: a pinned notice on the visit windows and an everyday one on the protocol version.
 * The demo's users are Korean sites, so the notices are in Korean, like the demo's other content.
 */
export async function seedDemoNotices(
  db: Kysely<Database>,
  input: { studyId: number; dataManager: string },
): Promise<void> {
  const dataManager = await personByEmail(db, input.dataManager);
  const notices = [
    {
      title: '방문 허용 범위(윈도우) 준수 안내',
      contentHtml:
        '<p>추적 방문은 V2(적용일) 기준 허용 범위 안에서 진행해 주십시오: ' +
        '<strong>V3 14일 ±3일</strong>, V4 28일 ±7일, V5 56일 ±7일, V6 84일 ±7일.</p>' +
        '<p>범위를 벗어난 방문은 방문 일정 화면에 표시되니 사유를 기록해 주십시오.</p>',
      pinned: true,
    },
    {
      title: '임상시험계획서 2.0판 적용',
      contentHtml:
        '<p>임상시험계획서 2.0판이 승인되어 모든 기관에 적용됩니다.</p>' +
        '<ul><li>변경 사항은 지침 메뉴의 계획서 PDF를 확인해 주십시오.</li><li>문의: 데이터 관리자</li></ul>',
    },
  ];
  for (const notice of notices)
    await createNotice(
      db,
      dataManager.principal,
      dataManager.actor,
      input.studyId,
      noticeWriteSchema.parse(notice),
    );
}
