import type { StudyDefinition } from '@cdms/study';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n/i18n.ts';
import type { StudySettings } from '../lib/designer-state.ts';
import { StudyRolesEditor } from './study-roles-editor.tsx';

const definition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계', en: 'Design' },
  codeLists: [
    {
      key: 'sides',
      codes: [
        { code: 'R', label: { ko: '우측', en: 'Right' } },
        { code: 'L', label: { ko: '좌측', en: 'Left' } },
      ],
    },
  ],
  visits: [{ key: 'V1', label: { ko: '기저', en: 'Baseline' }, group: 'screening', forms: ['pta', 'op'] }],
  forms: [
    {
      key: 'pta',
      label: { ko: '청력 검사', en: 'Hearing test' },
      sections: [{ key: 'main', label: { ko: '기본', en: 'Main' }, items: [] }],
    },
    {
      key: 'op',
      label: { ko: '수술', en: 'Surgery' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [
            { key: 'side', type: 'singleChoice', codeList: 'sides', label: { ko: '수술 귀', en: 'Ear' } },
            { key: 'note', type: 'text', label: { ko: '메모', en: 'Note' } },
          ],
        },
      ],
    },
  ],
} satisfies StudyDefinition;

function Harness({ initial, seen }: { initial: StudySettings; seen: StudySettings[] }) {
  const [settings, setSettings] = useState(initial);
  return (
    <StudyRolesEditor
      definition={definition}
      settings={settings}
      readOnly={false}
      onChange={(next) => {
        seen.push(next);
        setSettings(next);
      }}
    />
  );
}

const choose = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

afterEach(cleanup);

describe('StudyRolesEditor', () => {
  it('turns the audiogram’s treated ear on inside the role and chooses its visit, form, item and codes', () => {
    const seen: StudySettings[] = [];
    render(<Harness initial={{}} seen={seen} />);
    fireEvent.click(screen.getByRole('checkbox', { name: '청력도 역할 사용' }));
    const ear = screen.getByRole('group', { name: '시험 귀 (선택)' });
    const audiogram = ear.parentElement as HTMLElement;
    choose(audiogram, '양식', 'pta');
    fireEvent.click(within(ear).getByRole('checkbox', { name: '시험 귀 사용' }));
    expect(seen.at(-1)?.roles).toEqual({ audiogram: { form: 'pta', treatedEar: {} } });

    // Before its item, a code is typed; the item is chosen among the form's single choice items.
    expect((within(ear).getByLabelText('항목') as HTMLSelectElement).disabled).toBe(true);
    expect(within(ear).getByRole('textbox', { name: '우측 코드' })).toBeTruthy();
    choose(ear, '방문', 'V1');
    choose(ear, '양식', 'op');
    const item = within(ear).getByLabelText('항목') as HTMLSelectElement;
    expect([...item.options].map((option) => option.value)).toEqual(['', 'side']);
    choose(ear, '항목', 'side');
    const right = within(ear).getByRole('combobox', { name: '우측 코드' }) as HTMLSelectElement;
    expect([...right.options].map((option) => option.textContent)).toEqual([
      '선택하십시오',
      '우측 (R)',
      '좌측 (L)',
    ]);
    choose(ear, '우측 코드', 'R');
    choose(ear, '좌측 코드', 'L');
    expect(seen.at(-1)?.roles).toEqual({
      audiogram: {
        form: 'pta',
        treatedEar: { visit: 'V1', form: 'op', item: 'side', rightCode: 'R', leftCode: 'L' },
      },
    });

    fireEvent.click(within(ear).getByRole('checkbox', { name: '시험 귀 사용' }));
    expect(seen.at(-1)?.roles).toEqual({ audiogram: { form: 'pta' } });
  });

  it('shows a key kept from before that is not a choice, so it can be seen and changed', () => {
    render(
      <Harness
        initial={{
          roles: {
            audiogram: {
              form: 'pta',
              treatedEar: { visit: 'V1', form: 'op', item: 'note', rightCode: 'R', leftCode: 'L' },
            },
          },
        }}
        seen={[]}
      />,
    );
    const ear = screen.getByRole('group', { name: '시험 귀 (선택)' });
    const item = within(ear).getByLabelText('항목') as HTMLSelectElement;
    expect(item.value).toBe('note');
    expect(item.selectedOptions[0]?.textContent).toBe('note (선택할 수 없음)');
    // The text item has no list: the codes are typed.
    expect((within(ear).getByRole('textbox', { name: '우측 코드' }) as HTMLInputElement).value).toBe('R');
  });
});
