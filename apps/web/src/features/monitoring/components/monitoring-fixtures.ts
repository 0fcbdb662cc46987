import type {
  IndicatorValue,
  KriKey,
  MonitoringPanelResponse,
  MonitoringResponse,
  MonitoringRun,
  Signal,
} from '@cdms/contract';
import { kriKeys } from '@cdms/contract';

/** Answers of the monitoring API for the component tests (not imported by the app). */

export const siteA = { id: 1, code: '01', name: '서울병원', institutionNumber: '01' };
export const siteB = { id: 2, code: '02', name: '부산병원', institutionNumber: '02' };

export function doneRun(overrides: Partial<MonitoringRun> = {}): MonitoringRun {
  return {
    state: 'done',
    startedAt: '2026-12-07T01:00:00Z',
    finishedAt: '2026-12-07T01:00:05Z',
    progress: { done: 40, total: 40 },
    stale: false,
    ...overrides,
  };
}

export function indicator(key: KriKey, overrides: Partial<IndicatorValue> = {}): IndicatorValue {
  return { key, value: 1.5, numerator: 3, denominator: 2, light: 'green', studyValue: 1.2, ...overrides };
}

export function signal(overrides: Partial<Signal> = {}): Signal {
  return {
    id: 11,
    kind: 'digitPreference',
    site: siteB,
    strength: 0.97,
    title: { ko: '02 기관 수축기 혈압 끝자리 0 선호', en: 'Site 02: systolic pressures end in 0' },
    explanation: { ko: '카이제곱 검정 p < 0.001', en: 'Chi-square test p < 0.001' },
    items: [
      { visitKey: 'week1', formKey: 'vitals', itemKey: 'sbp', label: { ko: '수축기 혈압', en: 'Systolic' } },
      { visitKey: 'week2', formKey: 'vitals', itemKey: 'sbp', label: { ko: '수축기 혈압', en: 'Systolic' } },
    ],
    subjects: [
      { subjectId: 5, screeningNumber: 'S02-001' },
      { subjectId: 6, screeningNumber: 'S02-002' },
      { subjectId: 7, screeningNumber: 'S02-003' },
    ],
    numbers: { chiSquare: 41.25, p: 0.00001, n: 120 },
    chart: {
      kind: 'bars',
      labels: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
      series: [{ name: { ko: '02 기관', en: 'Site 02' }, values: [60, 5, 6, 7, 4, 20, 5, 4, 5, 4] }],
    },
    state: 'open',
    resolution: null,
    foundAt: '2026-12-07T01:00:05Z',
    ...overrides,
  };
}

export function monitoringAnswer(overrides: Partial<MonitoringResponse> = {}): MonitoringResponse {
  return {
    run: doneRun(),
    limits: kriKeys.map((key) => ({ key, warning: 5, limit: 10, direction: 'high', minimumDenominator: 1 })),
    sites: [siteA, siteB].map((site, index) => ({
      site,
      subjects: 10 + index,
      indicators: kriKeys.map((key) =>
        indicator(key, key === 'queryAnswerDays' && index === 1 ? { value: 12.5, light: 'red' } : {}),
      ),
      trends: [
        {
          key: 'queryRate',
          points: [
            { day: '2026-12-05', value: 1 },
            { day: '2026-12-06', value: 2 },
            { day: '2026-12-07', value: 1.5 },
          ],
        },
      ],
    })),
    signalCounts: { open: 1, queried: 0, noted: 0, dismissed: 0 },
    canManageLimits: true,
    canActOnSignals: true,
    ...overrides,
  };
}

export function panelAnswer(overrides: Partial<MonitoringPanelResponse> = {}): MonitoringPanelResponse {
  return {
    run: doneRun(),
    topSignals: [signal()],
    flaggedIndicators: [
      { site: siteB, indicator: indicator('queryAnswerDays', { value: 12.5, light: 'red' }) },
    ],
    canOpenPage: true,
    ...overrides,
  };
}
