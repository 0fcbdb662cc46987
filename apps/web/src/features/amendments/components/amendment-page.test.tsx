import type { AmendmentResponse } from '@cdms/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { renderAmendmentPages } from './render-page.tsx';
import { PUBLISHED_HASH, publishedSummary, type SentRequest, serve, summary } from './test-server.ts';

/** A draft with one question of each kind, a refusal, two changes and two declarations made. */
function draft(overrides: Partial<AmendmentResponse> = {}): AmendmentResponse {
  return {
    amendment: summary(),
    declarations: {
      typeConversions: [{ form: 'LAB', item: 'HB', to: 'decimal' }],
      codeMappings: [{ codeList: 'SEX', map: { M: 'MALE' } }],
    },
    draftRevision: 3,
    changeSet: {
      changes: [
        { kind: 'itemAdded', element: 'form:VS/item:SPO2', text: '양식 VS › 항목 SPO2: 추가됨' },
        { kind: 'formRemoved', element: 'form:OLD', text: '양식 OLD: 삭제됨, 값 보관 종료' },
      ],
      questions: [
        {
          code: 'itemRenameOrReplace',
          form: 'VS',
          removed: 'PULSE',
          added: 'HR',
          element: 'form:VS/item:PULSE',
          text: '항목 VS/PULSE가 삭제되고 HR이 추가되었습니다. 이름 변경입니까, 교체입니까?',
        },
        {
          code: 'formRenameOrReplace',
          removed: 'AE',
          added: 'AEV2',
          element: 'form:AE',
          text: '양식 AE가 삭제되고 AEV2가 추가되었습니다. 이름 변경입니까, 교체입니까?',
        },
        {
          code: 'codesNeedMapping',
          codeList: 'SEX',
          codes: ['F', 'U'],
          nextCodes: ['MALE', 'FEMALE', 'UNKNOWN'],
          element: 'codeList:SEX',
          text: '코드 목록 SEX의 코드 F, U가 삭제되었습니다.',
        },
        {
          code: 'conversionNeeded',
          form: 'VS',
          item: 'TEMP',
          from: 'text',
          to: 'decimal',
          element: 'form:VS/item:TEMP',
          text: '항목 VS/TEMP의 형식이 text에서 decimal로 바뀌었습니다.',
        },
      ],
      refusals: [{ code: 'definitionKeyChanged', element: 'study', text: '스터디 키는 바꿀 수 없습니다.' }],
      ready: false,
    },
    definitionProblems: 0,
    publishBlocker: null,
    ...overrides,
  };
}

const fields = {
  number: 'AM-01',
  reason: '활력 징후 양식 개정',
  sites: [
    { siteId: 1, effectiveOn: '2026-12-10' },
    { siteId: 2, effectiveOn: null },
  ],
};

/** The declarations of the first write. */
function declarationsSent(sent: SentRequest[]): Record<string, unknown> | undefined {
  return (sent[0]?.body as { declarations?: Record<string, unknown> } | undefined)?.declarations;
}

/** The question item holding `text`. */
async function question(text: RegExp): Promise<HTMLElement> {
  return (await screen.findByText(text)).closest('li') as HTMLElement;
}

describe('AmendmentPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a draft: not ready, its questions first, then refusals and changes, and its declarations', async () => {
    serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByRole('heading', { name: '프로토콜 변경 AM-01' })).toBeTruthy();
    expect(screen.getByText('1.0.0 → 1.1.0')).toBeTruthy();
    expect(screen.getByText('아직 배포할 수 없습니다')).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['답할 질문 4건', '거부 1건', '저장된 데이터의 변경 2건']);
    expect(screen.getByText('스터디 키는 바꿀 수 없습니다.')).toBeTruthy();
    expect(screen.getByText('form:VS/item:SPO2')).toBeTruthy();
    expect(screen.getByText('항목 형식 변환: LAB/HB → decimal')).toBeTruthy();
    expect(screen.getByText('코드 목록 SEX 매핑: M → MALE')).toBeTruthy();
    expect(screen.getByRole('link', { name: '설계 화면에서 다음 버전 편집' }).getAttribute('href')).toBe(
      '/design/4',
    );
  });

  it('answers a rename question with an item rename, keeping the fields and other declarations, and reads the amendment again', async () => {
    const { sent, reads } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    const item = await question(/항목 VS\/PULSE가 삭제되고/);
    const before = reads.length;
    fireEvent.click(within(item).getByRole('button', { name: '이름 변경 (값 이동)' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'PUT',
      path: '/api/studies/4/amendments/7',
      body: {
        ...fields,
        declarations: {
          ...draft().declarations,
          itemRenames: [{ form: 'VS', from: 'PULSE', to: 'HR' }],
        },
      },
    });
    await waitFor(() => expect(reads.slice(before)).toContain('/api/studies/4/amendments/7?lang=ko'));
  });

  it('answers a form question with a replacement (values retired)', async () => {
    const { sent } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    const form = await question(/양식 AE가 삭제되고/);
    fireEvent.click(within(form).getByRole('button', { name: '교체 (값은 보존하고 입력에서 숨김)' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(declarationsSent(sent)).toEqual({
      ...draft().declarations,
      replacements: [{ removed: 'AE', added: 'AEV2' }],
    });
  });

  it('maps removed codes onto the next codes, merged into the list’s mapping', async () => {
    const { sent } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    const codes = await question(/코드 목록 SEX의 코드 F, U가 삭제되었습니다/);
    const map = within(codes).getByRole('button', { name: '매핑' }) as HTMLButtonElement;
    expect(map.disabled).toBe(true);
    fireEvent.change(within(codes).getByLabelText('코드 F →'), { target: { value: 'FEMALE' } });
    fireEvent.change(within(codes).getByLabelText('코드 U →'), { target: { value: 'UNKNOWN' } });
    fireEvent.click(map);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(declarationsSent(sent)).toEqual({
      typeConversions: [{ form: 'LAB', item: 'HB', to: 'decimal' }],
      codeMappings: [{ codeList: 'SEX', map: { M: 'MALE', F: 'FEMALE', U: 'UNKNOWN' } }],
    });
  });

  it('answers a conversion question with a type conversion', async () => {
    const { sent } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    const conversion = await question(/항목 VS\/TEMP의 형식이/);
    fireEvent.click(within(conversion).getByRole('button', { name: 'decimal 형식으로 변환' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(declarationsSent(sent)?.typeConversions).toEqual([
      { form: 'LAB', item: 'HB', to: 'decimal' },
      { form: 'VS', item: 'TEMP', to: 'decimal' },
    ]);
  });

  it('removes a declaration: the amendment is sent without it', async () => {
    const { sent } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '삭제: 항목 형식 변환: LAB/HB → decimal' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({
      ...fields,
      declarations: { codeMappings: [{ codeList: 'SEX', map: { M: 'MALE' } }] },
    });
  });

  it('shows the server’s refusal of a declaration', async () => {
    serve({
      amendment: draft(),
      refusal: { status: 422, code: 'invalid_declarations', message: '선언이 올바르지 않습니다.' },
    });
    renderAmendmentPages('/design/4/amendments/7');
    const item = await question(/항목 VS\/PULSE가 삭제되고/);
    fireEvent.click(within(item).getByRole('button', { name: '이름 변경 (값 이동)' }));
    expect(await screen.findByText('선언이 올바르지 않습니다.')).toBeTruthy();
  });

  it('saves the edited fields with the declarations unchanged', async () => {
    const { sent } = serve({ amendment: draft() });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.change(await screen.findByLabelText('변경 번호'), { target: { value: 'AM-01a' } });
    fireEvent.change(screen.getByLabelText('S02 부산병원'), { target: { value: '2026-12-20' } });
    fireEvent.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({
      number: 'AM-01a',
      reason: '활력 징후 양식 개정',
      sites: [
        { siteId: 1, effectiveOn: '2026-12-10' },
        { siteId: 2, effectiveOn: '2026-12-20' },
      ],
      declarations: draft().declarations,
    });
  });

  it('discards the draft with a reason, then goes back to the list', async () => {
    const { sent } = serve({ amendment: draft() });
    const router = renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '폐기' }));
    const dialog = await screen.findByRole('dialog', { name: '프로토콜 변경 AM-01 폐기' });
    fireEvent.change(within(dialog).getByLabelText('폐기 사유'), { target: { value: '일정 변경으로 취소' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '폐기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/design/4/amendments'));
    expect(sent).toEqual([
      { method: 'POST', path: '/api/studies/4/amendments/7/discard', body: { reason: '일정 변경으로 취소' } },
    ]);
  });

  it('says a draft that is not a valid definition yet has no change set, with the designer link', async () => {
    serve({ amendment: draft({ changeSet: null, definitionProblems: 2 }) });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText(/초안이 아직 올바른 정의가 아닙니다. 설계 화면에 문제 2건/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '설계 화면에서 문제 고치기' }).getAttribute('href')).toBe(
      '/design/4',
    );
  });

  it('shows a published amendment read-only, with its content hash, migration and impact analysis', async () => {
    serve({
      amendment: draft({
        amendment: publishedSummary(),
        changeSet: null,
        draftRevision: null,
      }),
    });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText('배포됨')).toBeTruthy();
    expect(screen.getByText(/데이터 관리자 배포, 2026-12-11 09:00/)).toBeTruthy();
    const shown = screen.getByText('a3f1c9e07b5d2468…');
    expect(shown.tagName).toBe('CODE');
    expect(shown.getAttribute('title')).toBe(PUBLISHED_HASH);
    expect(screen.getByText('S02 부산병원: IRB 승인일')).toBeTruthy();
    expect(screen.getByText('아직 승인되지 않음')).toBeTruthy();
    expect(screen.getByText('항목 형식 변환: LAB/HB → decimal')).toBeTruthy();
    // Nothing of a draft: no declaration removed, no save, discard, publication or analysis run.
    expect(screen.queryByRole('button', { name: /^삭제/ })).toBeNull();
    for (const name of ['저장', '폐기', '배포 (전자서명)', '영향 분석 실행'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByText('변경 세트')).toBeNull();
    // The migration, then the analysis it was published on, read only (no PDF: the server draws a draft's).
    expect(screen.getByRole('heading', { name: '대상자 이관' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '저장된 데이터에 미치는 영향' })).toBeTruthy();
    expect(await screen.findByText('아직 영향 분석을 실행하지 않았습니다.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'PDF로 내려받기' })).toBeNull();
  });
});
