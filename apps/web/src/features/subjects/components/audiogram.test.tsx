import { audiogramLayout, tmPerforationStudy } from '@cdms/study';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n/i18n.ts';
import { createSubjectStore } from '../../../components/crf-form/subject-store.ts';
import { PtaAudiogram } from './audiogram.tsx';
import { comparedPtaVisits } from './audiogram-comparison.tsx';

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

describe('the audiograms the overview compares', () => {
  const unscheduled = {
    visitKey: 'unscheduled-1',
    repeatKey: 1,
    visitDate: '2026-06-01',
    reason: '청력 저하 호소',
    createdAt: '2026-06-01T01:00:00.000Z',
    hasData: true,
  };
  const overview = (ptaStatus: 'check' | 'none') => ({
    unscheduledVisits: [unscheduled],
    visitDates: { v1: '2026-03-01', v2: '2026-03-10', v3: '2026-03-24' },
    matrix: { 'unscheduled-1': { ptaTest: ptaStatus } },
  });

  it('are the first and last scheduled visits with the PTA form (V1 and V2 in the first study)', () => {
    expect(comparedPtaVisits(tmPerforationStudy)).toEqual(['v1', 'v2']);
    expect(comparedPtaVisits(tmPerforationStudy, overview('none'))).toEqual(['v1', 'v2']);
  });

  it('end at a later unscheduled visit whose PTA form was saved', () => {
    expect(comparedPtaVisits(tmPerforationStudy, overview('check'))).toEqual(['v1', 'unscheduled-1']);
  });
});
