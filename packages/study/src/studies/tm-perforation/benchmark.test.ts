import { describe, expect, it } from 'vitest';
import { evaluateSubject } from '../../engine/evaluate-subject.ts';
import { validateFormValues } from '../../engine/validate-values.ts';
import { tmPerforationStudy } from './index.ts';
import { SAMPLE_TODAY, sampleSubject } from './sample-subject.ts';

// Prints how long a full evaluation of one subject takes (target: under 5 ms). It never fails on timing:
// machines differ, and a flaky timing test helps nobody. Run: npx vitest run --project study benchmark

// The package compiles without DOM or Node types; both runtimes have a console.
declare const console: { log(...values: unknown[]): void };

function heavySubject() {
  const data = sampleSubject();
  const all = data.all ?? {};
  all.adverseEvent = {
    hasAdverseEvent: 'Y',
    events: Array.from({ length: 20 }, (_, i) => ({
      name: `Event ${i}`,
      startDate: '2025-04-01',
      endDate: '2025-04-03',
      serious: 'N',
      severity: 'mild',
      causality: 'unlikely',
      deviceAction: 'none',
      treatment: 'N',
      outcome: 'recovered',
    })),
  };
  return data;
}

describe('benchmark', () => {
  it('evaluates a full subject (every form of every visit, 20 adverse events) quickly', () => {
    const data = heavySubject();
    for (let i = 0; i < 50; i += 1) evaluateSubject(tmPerforationStudy, data, { today: SAMPLE_TODAY });
    const runs = 500;
    const started = Date.now();
    for (let i = 0; i < runs; i += 1) evaluateSubject(tmPerforationStudy, data, { today: SAMPLE_TODAY });
    const perSubject = (Date.now() - started) / runs;

    const validations = 500;
    const validationStarted = Date.now();
    for (let i = 0; i < validations; i += 1) {
      for (const [visitKey, forms] of Object.entries(data)) {
        for (const [formKey, values] of Object.entries(forms))
          validateFormValues(tmPerforationStudy, visitKey, formKey, values);
      }
    }
    const perValidation = (Date.now() - validationStarted) / validations;

    console.log(
      `[benchmark] evaluateSubject: ${perSubject.toFixed(3)} ms per full subject; ` +
        `validateFormValues over all forms: ${perValidation.toFixed(3)} ms (target < 5 ms)`,
    );
    expect(Number.isFinite(perSubject)).toBe(true);
  });
});
