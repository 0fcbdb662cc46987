import { type StudyDefinition, studyDefinitionSchema, tmPerforationStudy } from '@cdms/study';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createInputRefusals } from './input-refusals.ts';
import { renderForm } from './test-utils.tsx';

afterEach(cleanup);

const t = (ko: string, en: string) => ({ ko, en });

/** One item of every type, for the per-type tests. */
const everyType: StudyDefinition = studyDefinitionSchema.parse({
  key: 'everyType',
  version: '1.0.0',
  label: t('모든 유형', 'Every type'),
  codeLists: [
    {
      key: 'colour',
      codes: [
        { code: 'R', label: t('빨강', 'Red') },
        { code: 'G', label: t('초록', 'Green') },
        { code: 'B', label: t('파랑', 'Blue') },
      ],
    },
  ],
  visits: [{ key: 'v1', label: t('방문 1', 'Visit 1'), group: 'screening', forms: ['all'] }],
  forms: [
    {
      key: 'all',
      label: t('모든 유형 양식', 'Every type form'),
      sections: [
        {
          key: 'main',
          label: t('항목', 'Items'),
          help: t('섹션 도움말', 'Section help'),
          items: [
            { key: 'name', type: 'text', label: t('이름', 'Name'), maxLength: 10, required: true },
            { key: 'note', type: 'textarea', label: t('메모', 'Note'), maxLength: 3500 },
            { key: 'count', type: 'integer', label: t('개수', 'Count'), unit: '개', min: 0 },
            { key: 'height', type: 'decimal', label: t('신장', 'Height'), unit: 'cm', decimals: 1, min: 0 },
            { key: 'when', type: 'date', label: t('날짜', 'Date'), notFuture: true },
            { key: 'at', type: 'time', label: t('시각', 'Time') },
            {
              key: 'radio',
              type: 'singleChoice',
              label: t('라디오', 'Radio'),
              codeList: 'colour',
              display: 'radio',
            },
            {
              key: 'pick',
              type: 'singleChoice',
              label: t('선택', 'Pick'),
              codeList: 'colour',
              display: 'select',
            },
            { key: 'many', type: 'multipleChoice', label: t('여러 개', 'Many'), codeList: 'colour' },
            { key: 'flag', type: 'checkbox', label: t('표시', 'Flag') },
            {
              key: 'answer',
              type: 'yesNo',
              label: t('응답', 'Answer'),
              help: t('예 또는 아니오', 'Yes or no'),
            },
            { key: 'system', type: 'text', label: t('시스템 번호', 'System number'), readOnly: true },
          ],
        },
      ],
    },
  ],
});

const valuesOf = (store: ReturnType<typeof renderForm>['store']) => store.getFormValues('v1', 'all') ?? {};

describe('CrfForm item types', () => {
  it('renders the section, labels, help, units and a required mark', () => {
    renderForm(everyType, 'v1', 'all');
    expect(screen.getByRole('heading', { level: 2, name: '모든 유형 양식' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: '항목' })).toBeTruthy();
    expect(screen.getByText('섹션 도움말')).toBeTruthy();
    expect(screen.getByText('예 또는 아니오')).toBeTruthy();
    expect(screen.getByText('cm')).toBeTruthy();
    expect(screen.getByLabelText(/이름/).getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('(필수)')).toBeTruthy();
  });

  it('shows English labels when the language is en', () => {
    renderForm(everyType, 'v1', 'all', { language: 'en' });
    expect(screen.getByRole('heading', { level: 2, name: 'Every type form' })).toBeTruthy();
    expect(screen.getByLabelText(/Height/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Green' })).toBeTruthy();
  });

  it('text and textarea report text, with a counter on the textarea', () => {
    const { store } = renderForm(everyType, 'v1', 'all');
    fireEvent.change(screen.getByLabelText(/이름/), { target: { value: '홍길동' } });
    fireEvent.change(screen.getByLabelText('메모'), { target: { value: 'abc' } });
    expect(valuesOf(store)).toMatchObject({ name: '홍길동', note: 'abc' });
    expect(screen.getByText('3/3500')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/이름/), { target: { value: '' } });
    expect(valuesOf(store).name).toBeNull();
  });

  it('integer and decimal inputs keep only digits and a dot and report numbers', () => {
    const { store } = renderForm(everyType, 'v1', 'all');
    const height = screen.getByLabelText('신장') as HTMLInputElement;
    fireEvent.change(height, { target: { value: '17a0.55' } });
    expect(height.value).toBe('170.5');
    expect(valuesOf(store).height).toBe(170.5);
    fireEvent.change(height, { target: { value: '-1.2.3' } });
    expect(height.value).toBe('1.2');
    const count = screen.getByLabelText('개수') as HTMLInputElement;
    fireEvent.change(count, { target: { value: '1.5' } });
    expect(count.value).toBe('15');
    expect(valuesOf(store).count).toBe(15);
  });

  it('a date is typed as YYYY-MM-DD; a date after max (today) or an impossible date is refused, not dropped', () => {
    const refusals = createInputRefusals();
    const { store } = renderForm(everyType, 'v1', 'all', { refusals });
    const date = screen.getByLabelText('날짜') as HTMLInputElement;
    fireEvent.change(date, { target: { value: '202506' } });
    expect(date.value).toBe('2025-06');
    expect(valuesOf(store).when ?? null).toBeNull();
    fireEvent.change(date, { target: { value: '20250601' } });
    expect(date.value).toBe('2025-06-01');
    expect(valuesOf(store).when).toBe('2025-06-01');
    expect(refusals.list()).toEqual([]);
    // Refused: the typed date stays on screen with its message, the value stays the last accepted one,
    // and the refusal is reported (a page that saves refuses to save meanwhile).
    fireEvent.change(date, { target: { value: '2025-06-21' } });
    expect(valuesOf(store).when).toBe('2025-06-01');
    expect(date.value).toBe('2025-06-21');
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain('2025-06-20 이후의 날짜는 선택할 수 없습니다');
    expect(refusals.list()).toEqual([
      { path: 'when', refusal: { key: 'date.afterMax', values: { max: '2025-06-20' } } },
    ]);
    fireEvent.change(date, { target: { value: '2025-02-30' } });
    expect(valuesOf(store).when).toBe('2025-06-01');
    expect(screen.getByRole('alert').textContent).toContain('올바른 날짜가 아닙니다');
    // An unfinished date is refused once the field is left; finishing it takes it.
    fireEvent.change(date, { target: { value: '2025-06-1' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.blur(date);
    expect(date.value).toBe('2025-06-1');
    expect(screen.getByRole('alert').textContent).toContain('날짜를 끝까지 입력하십시오');
    expect(refusals.list()).toHaveLength(1);
    fireEvent.change(date, { target: { value: '2025-06-10' } });
    expect(valuesOf(store).when).toBe('2025-06-10');
    expect(refusals.list()).toEqual([]);
    fireEvent.change(date, { target: { value: '' } });
    expect(valuesOf(store).when).toBeNull();
  });

  it('half a time or a number sign alone is refused once the field is left', () => {
    const refusals = createInputRefusals();
    renderForm(everyType, 'v1', 'all', { refusals });
    const hour = screen.getByRole('combobox', { name: '시각 시' });
    fireEvent.change(hour, { target: { value: '14' } });
    expect(refusals.list()).toEqual([]);
    fireEvent.blur(hour);
    expect(refusals.list()).toEqual([{ path: 'at', refusal: { key: 'time.incomplete' } }]);
    expect(screen.getByRole('alert').textContent).toContain('시와 분을 모두 선택하십시오.');
    fireEvent.change(screen.getByRole('combobox', { name: '시각 분' }), { target: { value: '35' } });
    expect(refusals.list()).toEqual([]);
    const height = screen.getByLabelText('신장') as HTMLInputElement;
    fireEvent.change(height, { target: { value: '.' } });
    fireEvent.blur(height);
    expect(refusals.list()).toEqual([{ path: 'height', refusal: { key: 'number.incomplete' } }]);
    expect(screen.getByRole('alert').textContent).toContain('숫자를 입력하십시오.');
    fireEvent.change(height, { target: { value: '.5' } });
    expect(refusals.list()).toEqual([]);
  });

  it('a date field does nothing when read-only', () => {
    renderForm(everyType, 'v1', 'all', { readOnly: true });
    expect((screen.getByLabelText('날짜') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '달력 열기' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a time is chosen as 24-hour HH:mm in 5-minute steps', () => {
    const { store } = renderForm(everyType, 'v1', 'all');
    const hour = screen.getByRole('combobox', { name: '시각 시' });
    const minute = screen.getByRole('combobox', { name: '시각 분' });
    expect(within(hour).getAllByRole('option')).toHaveLength(25);
    expect(
      within(minute)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['--', '00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
    fireEvent.change(hour, { target: { value: '14' } });
    expect(valuesOf(store).at ?? null).toBeNull();
    fireEvent.change(minute, { target: { value: '35' } });
    expect(valuesOf(store).at).toBe('14:35');
  });

  it('choices: radio, select, multiple choice, checkbox and yes/no report codes', () => {
    const { store } = renderForm(everyType, 'v1', 'all');
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: '라디오' })).getByRole('radio', { name: '초록' }),
    );
    fireEvent.change(screen.getByRole('combobox', { name: '선택' }), { target: { value: 'B' } });
    const many = screen.getByRole('group', { name: '여러 개' });
    fireEvent.click(within(many).getByRole('checkbox', { name: '파랑' }));
    fireEvent.click(within(many).getByRole('checkbox', { name: '빨강' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '표시' }));
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: '응답' })).getByRole('radio', { name: '예' }),
    );
    expect(valuesOf(store)).toMatchObject({
      radio: 'G',
      pick: 'B',
      many: ['R', 'B'],
      flag: true,
      answer: 'Y',
    });
  });

  it('a system-filled item is read-only and shows the stored value', () => {
    renderForm(everyType, 'v1', 'all', { data: { v1: { all: { system: 'S01-001' } } } });
    const input = screen.getByLabelText('시스템 번호') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('S01-001');
  });

  it('readOnly disables every input', () => {
    renderForm(everyType, 'v1', 'all', { readOnly: true });
    expect((screen.getByLabelText(/이름/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: '초록' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('values set from outside (sample data, clear) appear in the inputs', () => {
    const { store } = renderForm(everyType, 'v1', 'all');
    act(() => store.replace({ v1: { all: { height: 180.2, at: '09:05' } } }));
    expect((screen.getByLabelText('신장') as HTMLInputElement).value).toBe('180.2');
    expect((screen.getByRole('combobox', { name: '시각 시' }) as HTMLSelectElement).value).toBe('09');
    act(() => store.replace({}));
    expect((screen.getByLabelText('신장') as HTMLInputElement).value).toBe('');
  });
});

describe('CrfForm with the rules engine (tympanic membrane perforation study)', () => {
  it('derives BMI from height and weight, read-only', async () => {
    renderForm(tmPerforationStudy, 'v1', 'bodyMeasurement');
    fireEvent.change(screen.getByLabelText(/신장/), { target: { value: '170' } });
    fireEvent.change(screen.getByLabelText(/체중/), { target: { value: '65' } });
    const bmi = screen.getByLabelText(/체질량지수/) as HTMLInputElement;
    expect(bmi.readOnly).toBe(true);
    await waitFor(() => expect(bmi.value).toBe('22.5'));
    expect(screen.getByText('자동 계산')).toBeTruthy();
  });

  it('the not-done checkbox disables the section and stays enabled itself', async () => {
    renderForm(tmPerforationStudy, 'v1', 'bodyMeasurement');
    const height = screen.getByLabelText(/신장/) as HTMLInputElement;
    expect(height.disabled).toBe(false);
    expect(screen.getAllByText('(필수)').length).toBeGreaterThan(0);
    const nd = screen.getByRole('checkbox', { name: /ND/ }) as HTMLInputElement;
    fireEvent.click(nd);
    await waitFor(() => expect(height.disabled).toBe(true));
    expect(nd.disabled).toBe(false);
    expect(screen.queryByText('(필수)')).toBeNull();
  });

  it('a section sharing another section’s ND shows a not-done mark (lab panels)', async () => {
    renderForm(tmPerforationStudy, 'v1', 'labTest');
    expect(screen.queryAllByText('시행하지 않음(ND)')).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox', { name: /ND/ }));
    await waitFor(() => expect(screen.getAllByText('시행하지 않음(ND)')).toHaveLength(4));
  });

  it('a condition hides an item until it holds', async () => {
    renderForm(tmPerforationStudy, 'v1', 'diseaseBasicInfo', {
      data: { v1: { diseaseBasicInfo: { earDischarge: 'Y' } } },
    });
    expect(screen.queryByLabelText(/색깔 소견/)).toBeNull();
    const colour = screen.getByRole('radiogroup', { name: /색깔/ });
    fireEvent.click(within(colour).getByRole('radio', { name: '유색' }));
    await waitFor(() => expect(screen.getByLabelText(/색깔 소견/)).toBeTruthy());
  });

  it('a hidden section is not rendered', async () => {
    renderForm(tmPerforationStudy, 'v1', 'diseaseBasicInfo');
    expect(screen.queryByRole('heading', { name: '이루 양상' })).toBeNull();
    const discharge = screen.getByRole('radiogroup', { name: /이루\(귀 분비물\)/ });
    fireEvent.click(within(discharge).getByRole('radio', { name: '예' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: '이루 양상' })).toBeTruthy());
  });

  it('a warning appears under its item in the current language', async () => {
    const data = { consentScreening: { consentScreening: { consentDate: '2025-03-03' } } };
    renderForm(tmPerforationStudy, 'v1', 'demographicInfo', { data, language: 'en' });
    fireEvent.change(screen.getByLabelText(/Date of birth/), { target: { value: '2015-01-01' } });
    const age = screen.getByLabelText(/Age/) as HTMLInputElement;
    await waitFor(() => expect(age.value).toBe('10'));
    const item = age.closest('[data-item]') as HTMLElement;
    const message = within(item)
      .getByText(/Younger than 15/)
      .closest('li') as HTMLElement;
    expect(message.dataset.severity).toBe('warning');
    expect(message.textContent).toContain('Warning');
  });

  it('a query check shows under the item with the query style', async () => {
    const data = { v1: { diseaseBasicInfo: { earDischarge: 'Y' } } };
    renderForm(tmPerforationStudy, 'v1', 'inclusionExclusionEval', { data });
    const eligible = screen.getAllByRole('radiogroup')[0] as HTMLElement;
    fireEvent.click(within(eligible).getByRole('radio', { name: '예' }));
    const message = await screen.findByText(/이루가 "예"입니다/);
    expect(message.closest('li')?.dataset.severity).toBe('query');
  });

  it('adds rows, removes an empty row at once and asks before removing a row with data', async () => {
    const { store } = renderForm(tmPerforationStudy, 'all', 'adverseEvent', {
      data: { all: { adverseEvent: { hasAdverseEvent: 'Y' } } },
    });
    expect(screen.getByText('한 행 이상 입력해야 합니다.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /행 추가/ }));
    fireEvent.click(screen.getByRole('button', { name: /행 추가/ }));
    expect(screen.getByText('1번')).toBeTruthy();
    expect(screen.getByText('2번')).toBeTruthy();
    fireEvent.change(screen.getAllByLabelText(/이상사례명/)[0] as HTMLElement, { target: { value: '두통' } });
    expect(store.getRows('all', 'adverseEvent', 'events')).toEqual([{ name: '두통' }, {}]);

    fireEvent.click(screen.getByRole('button', { name: '2번 행 삭제' }));
    expect(screen.queryByText('2번')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '1번 행 삭제' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('1번 행에 입력된 내용이 있습니다');
    fireEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(store.getRows('all', 'adverseEvent', 'events')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: '1번 행 삭제' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '삭제' }));
    await waitFor(() => expect(store.getRows('all', 'adverseEvent', 'events')).toHaveLength(0));
  });

  it('a row’s condition applies to that row only (ongoing hides the end date)', async () => {
    renderForm(tmPerforationStudy, 'v1', 'medicalHistory', {
      data: { v1: { medicalHistory: { histories: [{ content: 'A' }, { content: 'B' }] } } },
    });
    expect(screen.getAllByLabelText(/종료일/)).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('checkbox', { name: /지속 여부/ })[0] as HTMLElement);
    await waitFor(() => expect(screen.getAllByLabelText(/종료일/)).toHaveLength(1));
  });

  it('shows a routing outcome', async () => {
    renderForm(tmPerforationStudy, 'v2', 'deviceApplication');
    const applied = screen.getAllByRole('radiogroup')[0] as HTMLElement;
    fireEvent.click(within(applied).getByRole('radio', { name: '아니오' }));
    expect(await screen.findByText('종료 방문 작성')).toBeTruthy();
  });

  it('says so when the visit does not have the form', () => {
    renderForm(tmPerforationStudy, 'v3', 'demographicInfo');
    expect(screen.getByText('이 방문에는 해당 양식이 없습니다.')).toBeTruthy();
  });
});

describe('stored queries beside the live checks', () => {
  it('shows a check that has a stored query once: the stored query, with its state', async () => {
    const data = { v1: { all: { count: -1 } } };
    const stored = {
      id: 'query-1',
      tone: 'query' as const,
      label: '쿼리 · 열림',
      text: '저장된 쿼리',
      checkId: 'all.count.range',
    };
    renderForm(everyType, 'v1', 'all', { data, itemNotes: new Map([['count', [stored]]]) });
    const item = (await screen.findByText('저장된 쿼리')).closest('[data-item]') as HTMLElement;
    expect(within(item).queryAllByText(/허용 범위/)).toHaveLength(0);
    cleanup();
    renderForm(everyType, 'v1', 'all', { data });
    const live = await screen.findByText(/허용 범위/);
    expect(live.closest('[data-item]')?.getAttribute('data-item')).toBe('count');
  });
});
