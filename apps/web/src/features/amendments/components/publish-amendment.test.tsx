import { type AmendmentImpact, type AmendmentResponse, impactKinds } from '@cdms/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { renderAmendmentPages } from './render-page.tsx';
import { PUBLISHED_HASH, publishedSummary, serve, summary } from './test-server.ts';

/** A draft whose change set is ready (or not), or none at all. */
function draft(changeSet: 'ready' | 'notReady' | 'none'): AmendmentResponse {
  return {
    amendment: summary(),
    declarations: { typeConversions: [{ form: 'VS', item: 'TEMP', to: 'decimal' }] },
    draftRevision: 3,
    changeSet:
      changeSet === 'none'
        ? null
        : {
            changes: [{ kind: 'itemTypeChanged', element: 'form:VS/item:TEMP', text: '형식 변경' }],
            questions: [],
            refusals:
              changeSet === 'ready'
                ? []
                : [{ code: 'definitionKeyChanged', element: 'study', text: '스터디 키는 바꿀 수 없습니다.' }],
            ready: changeSet === 'ready',
          },
    definitionProblems: changeSet === 'none' ? 1 : 0,
    publishBlocker: null,
  };
}

function impact(current: boolean): AmendmentImpact {
  return {
    computedAt: '2026-12-05T01:00:00.000Z',
    computedBy: '데이터 관리자',
    draftRevision: 3,
    current,
    subjects: 12,
    byKind: Object.fromEntries(
      impactKinds.map((kind) => [kind, { rows: 0, subjects: 0 }]),
    ) as AmendmentImpact['byKind'],
  };
}

/** The draft once published: read from then on. */
const published: AmendmentResponse = {
  ...draft('ready'),
  amendment: publishedSummary(),
  changeSet: null,
  draftRevision: null,
};

async function publishButton(): Promise<HTMLButtonElement> {
  return (await screen.findByRole('button', { name: '배포 (전자서명)' })) as HTMLButtonElement;
}

describe('publishing a draft amendment with an electronic signature', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('is disabled, saying why, while the change set is not ready', async () => {
    serve({ amendment: draft('notReady'), impact: impact(true) });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    expect(button.disabled).toBe(true);
    const why = screen.getByText('변경 세트의 질문에 모두 답하고 거부를 해결하면 배포할 수 있습니다.');
    expect(button.getAttribute('aria-describedby')).toBe(why.id);
  });

  it('is disabled while the draft is not a valid definition', async () => {
    serve({ amendment: draft('none'), impact: impact(true) });
    renderAmendmentPages('/design/4/amendments/7');
    expect((await publishButton()).disabled).toBe(true);
    expect(
      screen.getByText('초안이 올바른 정의가 되고 변경 세트가 준비되면 배포할 수 있습니다.'),
    ).toBeTruthy();
  });

  it('is disabled until the impact analysis has been run', async () => {
    serve({ amendment: draft('ready'), impact: null });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    expect(
      await screen.findByText(
        '먼저 지금의 초안으로 영향 분석을 실행하고 결과를 확인해야 배포할 수 있습니다.',
      ),
    ).toBeTruthy();
    expect(button.disabled).toBe(true);
  });

  it('is disabled while the impact analysis is out of date: run it again on the draft as it is first', async () => {
    const { sent } = serve({ amendment: draft('ready'), impact: impact(false) });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    expect(
      await screen.findByText(/지금의 초안으로 영향 분석을 다시 실행한 뒤에 배포할 수 있습니다/),
    ).toBeTruthy();
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('is enabled once ready and analyzed as it is; the signature dialog says what it means and sends the password', async () => {
    const { sent } = serve({ amendment: draft('ready'), impact: impact(true), published });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.queryByText(/배포할 수 있습니다/)).toBeNull();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: '프로토콜 변경 AM-01 배포' });
    expect(within(dialog).getByText('서명함으로써 다음을 확인합니다:')).toBeTruthy();
    expect(
      within(dialog).getByText(
        '승인: 배포하면 새 버전(1.1.0)이 현재 버전(1.0.0)을 대신해 이 스터디의 현재 버전이 됩니다. 대상자는 소속 기관의 IRB 승인일이 시행되면 새 버전으로 이관됩니다.',
      ),
    ).toBeTruthy();
    // Without two-factor sign-in, no code is asked.
    expect(within(dialog).queryByLabelText('인증 앱 코드')).toBeNull();

    // No password: asked for, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: '서명하고 배포' }));
    expect(await within(dialog).findByText('비밀번호를 입력하세요.')).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('비밀번호'), { target: { value: 'cdms-demo-2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '서명하고 배포' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/api/studies/4/amendments/7/publish',
      body: { password: 'cdms-demo-2026' },
    });
    // The page reads the amendment again: published, read-only, with its hash and migration.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('배포됨')).toBeTruthy();
    expect(screen.getByText('a3f1c9e07b5d2468…').getAttribute('title')).toBe(PUBLISHED_HASH);
    expect(screen.getByRole('heading', { name: '대상자 이관' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '배포 (전자서명)' })).toBeNull();
    expect(screen.queryByRole('button', { name: '폐기' })).toBeNull();
  });

  it('asks a signer with two-factor sign-in for the authenticator code too, and sends it', async () => {
    const { sent } = serve({
      amendment: draft('ready'),
      impact: impact(true),
      published,
      secondFactor: true,
    });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: '프로토콜 변경 AM-01 배포' });
    fireEvent.change(within(dialog).getByLabelText('비밀번호'), { target: { value: 'cdms-demo-2026' } });
    fireEvent.change(within(dialog).getByLabelText('인증 앱 코드'), { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '서명하고 배포' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({ password: 'cdms-demo-2026', code: '123456' });
  });

  it('shows the server’s refusal in the dialog and empties the password', async () => {
    const { sent } = serve({
      amendment: draft('ready'),
      impact: impact(true),
      refusal: {
        status: 422,
        code: 'signature_password_incorrect',
        message: '비밀번호가 올바르지 않습니다.',
      },
    });
    renderAmendmentPages('/design/4/amendments/7');
    const button = await publishButton();
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: '프로토콜 변경 AM-01 배포' });
    const password = within(dialog).getByLabelText('비밀번호') as HTMLInputElement;
    fireEvent.change(password, { target: { value: 'wrong-password' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '서명하고 배포' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('비밀번호가 올바르지 않습니다.');
    expect(password.value).toBe('');
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: '프로토콜 변경 AM-01 배포' })).toBeTruthy();
  });
});
