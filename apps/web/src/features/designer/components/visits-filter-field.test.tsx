import type { StudyDefinition } from '@cdms/study';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n/i18n.ts';
import { VisitsFilterField } from './visits-filter-field.tsx';

const definition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계', en: 'Design' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['demo'] },
    { key: 'V2', label: { ko: '추적', en: 'Follow-up' }, group: 'follow_up', forms: [] },
    { key: 'V3', label: { ko: '종료', en: 'End' }, group: 'end_of_study', forms: ['demo'] },
  ],
  forms: [{ key: 'demo', label: { ko: '인구학', en: 'Demographics' }, sections: [] }],
} as unknown as StudyDefinition;

function Harness({ initial, seen }: { initial: string[] | undefined; seen: (string[] | undefined)[] }) {
  const [visits, setVisits] = useState(initial);
  return (
    <VisitsFilterField
      definition={definition}
      form={definition.forms[0] as StudyDefinition['forms'][number]}
      visits={visits}
      onChange={(next) => {
        seen.push(next);
        setVisits(next);
      }}
    />
  );
}

afterEach(cleanup);

describe('VisitsFilterField', () => {
  it('lists the visits holding the form; ticks keep the schedule order, none ticked is every visit', () => {
    const seen: (string[] | undefined)[] = [];
    render(<Harness initial={undefined} seen={seen} />);
    expect(screen.getByRole('group').textContent).toContain('이 양식이 있는 모든 방문');
    expect(screen.queryByRole('checkbox', { name: '추적' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: '종료' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '선별' }));
    expect(seen).toEqual([['V3'], ['V1', 'V3']]);
    expect(screen.getByRole('group').textContent).toContain('방문 2개');
    fireEvent.click(screen.getByRole('checkbox', { name: '선별' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '종료' }));
    expect(seen.at(-1)).toBeUndefined();
  });

  it('keeps a chosen visit that no longer has the form, so it can be unticked', () => {
    const seen: (string[] | undefined)[] = [];
    render(<Harness initial={['V2']} seen={seen} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'V2' }));
    expect(seen).toEqual([undefined]);
  });
});
