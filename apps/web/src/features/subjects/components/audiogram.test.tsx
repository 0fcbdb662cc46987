import { audiogramLayout, tmPerforationStudy } from '@cdms/study';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n/i18n.ts';
import { createSubjectStore } from '../../crf-form/subject-store.ts';
import { PtaAudiogram } from './audiogram.tsx';

const layout = audiogramLayout(tmPerforationStudy);
if (!layout) throw new Error('the first study has a PTA form');

function marks(kind: 'air' | 'bone') {
  return [...document.querySelectorAll(`[data-mark="${kind}"]`)].map((mark) => ({
    hz: Number(mark.getAttribute('data-hz')),
    db: Number(mark.getAttribute('data-db')),
    text: mark.textContent,
    y: Number(mark.getAttribute('y')),
  }));
}

describe('the PTA audiogram', () => {
  afterEach(cleanup);

  it('draws the typed thresholds in the treated ear’s convention and follows the typing', () => {
    const store = createSubjectStore({
      v1: {
        diseaseBasicInfo: { applicationSite: 'L' },
        ptaTest: { air500: 20, air1000: 35, air2000: 40, bone500: 10 },
      },
    });
    render(<PtaAudiogram store={store} visitKey="v1" layout={layout} />);
    const air = marks('air');
    expect(air.map((mark) => [mark.hz, mark.db, mark.text])).toEqual([
      [500, 20, 'X'],
      [1000, 35, 'X'],
      [2000, 40, 'X'],
    ]);
    // dB HL grows downwards.
    expect(air[0]?.y).toBeLessThan(air[1]?.y as number);
    expect(marks('bone').map((mark) => [mark.hz, mark.text])).toEqual([[500, '>']]);
    expect(screen.getByRole('img', { name: /청력도 \(좌측\)/ })).toBeDefined();
    expect(screen.getByRole('img').textContent).toContain('1000 Hz 35 dB');

    act(() => store.setValue('v1', 'ptaTest', { itemKey: 'air4000' }, 55));
    expect(marks('air').map((mark) => mark.hz)).toEqual([500, 1000, 2000, 4000]);
  });

  it('draws nothing for a section marked not done, and O for the right ear', () => {
    const store = createSubjectStore({
      v2: { ptaTest: { airNd: true, air500: 20, bone500: 15 } },
      v1: { diseaseBasicInfo: { applicationSite: 'R' } },
    });
    render(<PtaAudiogram store={store} visitKey="v2" layout={layout} />);
    expect(marks('air')).toEqual([]);
    expect(marks('bone').map((mark) => mark.text)).toEqual(['<']);
  });
});
