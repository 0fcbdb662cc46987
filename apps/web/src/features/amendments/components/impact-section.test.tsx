import { type AmendmentImpact, type AmendmentResponse, impactKinds } from '@cdms/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { renderAmendmentPages } from './render-page.tsx';
import { serve, summary } from './test-server.ts';

/** A draft whose change set is ready (or not, with one question left). */
function draft(ready: boolean): AmendmentResponse {
  return {
    amendment: summary(),
    declarations: { typeConversions: [{ form: 'VS', item: 'TEMP', to: 'decimal' }] },
    draftRevision: 3,
    changeSet: {
      changes: [{ kind: 'itemTypeChanged', element: 'form:VS/item:TEMP', text: '형식 변경' }],
      questions: ready
        ? []
        : [
            {
              code: 'conversionNeeded',
              form: 'VS',
              item: 'PULSE',
              from: 'text',
              to: 'integer',
              element: 'form:VS/item:PULSE',
              text: '항목 VS/PULSE의 형식이 text에서 integer로 바뀌었습니다.',
            },
          ],
      refusals: [],
      ready,
    },
    definitionProblems: 0,
    publishBlocker: null,
  };
}

/** An analysis of 12 subjects: 3 forms become incomplete (2 subjects), 1 value converted; the rest none. */
function impact(overrides: Partial<AmendmentImpact> = {}): AmendmentImpact {
  const byKind = Object.fromEntries(impactKinds.map((kind) => [kind, { rows: 0, subjects: 0 }]));
  return {
    computedAt: '2026-12-05T01:00:00.000Z',
    computedBy: '데이터 관리자',
    draftRevision: 3,
    current: true,
    subjects: 12,
    byKind: {
      ...byKind,
      formIncomplete: { rows: 3, subjects: 2 },
      valueConverted: { rows: 1, subjects: 1 },
    } as AmendmentImpact['byKind'],
    ...overrides,
  };
}

const rows = [
  {
    subjectPk: 31,
    subjectId: 'S01-001',
    site: 'S01',
    visitKey: 'v1',
    formKey: 'VS',
    itemKey: null,
    visit: '선별 방문',
    form: '활력 징후',
    item: null,
    kind: 'formIncomplete' as const,
    before: 'check',
    after: 'dash',
  },
  {
    subjectPk: 32,
    subjectId: 'S02-004',
    site: 'S02',
    visitKey: 'v2',
    formKey: 'VS',
    itemKey: 'TEMP',
    visit: '2차 방문',
    form: '활력 징후',
    item: '체온',
    kind: 'heldFormTouched' as const,
    before: null,
    after: { kind: 'locked', level: 'form' },
  },
];

describe('the impact analysis of a draft amendment', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says plainly when no analysis has been run', async () => {
    serve({ amendment: draft(true) });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText('아직 영향 분석을 실행하지 않았습니다.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '저장된 데이터에 미치는 영향' })).toBeTruthy();
  });

  it('shows who ran it when (UTC+9), the subjects analyzed and the counts per kind in words', async () => {
    serve({ amendment: draft(true), impact: impact() });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText('데이터 관리자 실행, 2026-12-05 10:00 · 분석한 대상자 12명')).toBeTruthy();
    const incomplete = screen.getByRole('button', { name: /입력 미완료가 되는 양식/ });
    expect(within(incomplete).getByText('3건 · 대상자 2명')).toBeTruthy();
    // The same, with the change set, as a PDF to file in the reader's language.
    expect(screen.getByRole('link', { name: 'PDF로 내려받기' }).getAttribute('href')).toBe(
      '/api/studies/4/amendments/7/impact.pdf?lang=ko',
    );
    expect(screen.getByRole('button', { name: /형식이 변환되는 값/ })).toBeTruthy();
    // A kind with no rows is shown, muted, and opens nothing.
    expect(screen.getByText('열리는 쿼리')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /열리는 쿼리/ })).toBeNull();
    expect(
      screen.getAllByRole('listitem').filter((item) => item.closest('ul[aria-label="종류별 건수"]')),
    ).toHaveLength(13);
    expect(screen.queryByText('이 결과는 최신이 아닙니다')).toBeNull();
  });

  it('says a stale analysis is out of date and should be run again', async () => {
    serve({ amendment: draft(true), impact: impact({ current: false }) });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText('이 결과는 최신이 아닙니다')).toBeTruthy();
    expect(screen.getByText('분석 뒤에 초안이나 선언이 바뀌었습니다. 다시 실행하세요.')).toBeTruthy();
  });

  it('opens a kind’s rows: the kind in the URL and the request, subjects linked, values readable', async () => {
    const { reads } = serve({ amendment: draft(true), impact: impact(), impactRows: rows });
    const router = renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: /입력 미완료가 되는 양식/ }));
    await waitFor(() =>
      expect(reads).toContain('/api/studies/4/amendments/7/impact/rows?kind=formIncomplete&page=1&size=50'),
    );
    expect(router.state.location.search).toBe('?kind=formIncomplete');
    const table = await screen.findByRole('table', { name: /^입력 미완료가 되는 양식: 상세/ });
    const link = within(table).getByRole('link', { name: 'S02-004' });
    expect(link.getAttribute('href')).toContain('subject-pk=32');
    // Names with their keys; statuses and holds in words.
    expect(within(table).getAllByText('활력 징후')).toHaveLength(2);
    expect(within(table).getByText('TEMP')).toBeTruthy();
    expect(within(table).getByText('완료')).toBeTruthy();
    expect(within(table).getByText('입력 중')).toBeTruthy();
    expect(within(table).getByText('잠금 (양식)')).toBeTruthy();
    expect(within(table).queryByText('[object Object]')).toBeNull();
    expect(screen.getByRole('button', { name: /입력 미완료가 되는 양식/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('filters a kind’s rows by subject through the shared filter panel', async () => {
    const { reads } = serve({ amendment: draft(true), impact: impact(), impactRows: rows });
    const router = renderAmendmentPages('/design/4/amendments/7?kind=formIncomplete&page=2');
    fireEvent.change(await screen.findByLabelText('스크리닝 번호'), { target: { value: ' S02 ' } });
    fireEvent.change(screen.getByLabelText('기관'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: '검색' }));
    await waitFor(() =>
      expect(reads).toContain(
        '/api/studies/4/amendments/7/impact/rows?kind=formIncomplete&siteId=2&subject=S02&page=1&size=50',
      ),
    );
    expect(router.state.location.search).toBe('?kind=formIncomplete&siteId=2&subject=S02');
  });

  it('runs the analysis with a POST once the change set is ready', async () => {
    const { sent } = serve({ amendment: draft(true), impact: impact() });
    renderAmendmentPages('/design/4/amendments/7');
    const button = (await screen.findByRole('button', { name: '영향 분석 실행' })) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: 'POST', path: '/api/studies/4/amendments/7/impact', body: null });
  });

  it('shows the run busy and disabled until the server answers', async () => {
    let answer = () => {};
    const { sent } = serve({
      amendment: draft(true),
      runHeld: new Promise((resolve) => {
        answer = resolve;
      }),
    });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '영향 분석 실행' }));
    const busy = (await screen.findByRole('button', { name: '분석 중…' })) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(busy);
    expect(sent).toHaveLength(1);
    answer();
    expect(await screen.findByRole('button', { name: '영향 분석 실행' })).toBeTruthy();
  });

  it('keeps the run disabled, saying why, while the change set is not ready', async () => {
    const { sent } = serve({ amendment: draft(false) });
    renderAmendmentPages('/design/4/amendments/7');
    const button = (await screen.findByRole('button', { name: '영향 분석 실행' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(
      screen.getByText('변경 세트의 질문에 모두 답하고 거부를 해결하면 영향 분석을 실행할 수 있습니다.'),
    ).toBeTruthy();
    fireEvent.click(button);
    expect(sent).toHaveLength(0);
  });

  it('shows the server’s refusal of a run', async () => {
    serve({
      amendment: draft(true),
      refusal: { status: 409, code: 'amendment_not_ready', message: '변경 세트가 준비되지 않았습니다.' },
    });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '영향 분석 실행' }));
    expect(await screen.findByText('변경 세트가 준비되지 않았습니다.')).toBeTruthy();
  });
});
