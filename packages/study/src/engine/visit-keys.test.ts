import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { evaluateSubject } from './evaluate-subject.ts';
import { computeStatusMatrix } from './form-status.ts';
import { getFormLayout } from './study-index.ts';
import { orderVisitKeys, resolveVisit, unscheduledRepeatKey, unscheduledVisitKey } from './visit-keys.ts';

const study = tmPerforationStudy;

describe('visit keys', () => {
  it('names the n-th unscheduled visit and reads the key back', () => {
    expect(unscheduledVisitKey(3)).toBe('unscheduled-3');
    expect(unscheduledRepeatKey('unscheduled-3')).toBe(3);
    for (const other of ['v3', 'unscheduled-0', 'unscheduled-', 'unscheduled-01', 'unscheduled-1x', 'all']) {
      expect(unscheduledRepeatKey(other)).toBeUndefined();
    }
  });

  it('resolves scheduled and unscheduled keys to their visit, and nothing else', () => {
    expect(resolveVisit(study, 'v3')?.window).toBeDefined();
    const unscheduled = resolveVisit(study, 'unscheduled-2');
    expect(unscheduled?.forms).toEqual(study.unscheduledVisit?.forms);
    expect(unscheduled?.window).toBeUndefined();
    expect(unscheduled?.label.ko).toBe(`${study.unscheduledVisit?.label.ko} 2`);
    expect(resolveVisit(study, 'v9')).toBeUndefined();
    const { unscheduledVisit: _none, ...withoutDeclaration } = study;
    expect(resolveVisit(withoutDeclaration, 'unscheduled-1')).toBeUndefined();
  });

  it('lays out the declared forms with their base sections, and no other form', () => {
    const layout = getFormLayout(study, 'unscheduled-1', 'tympanicPhoto');
    const form = study.forms.find((candidate) => candidate.key === 'tympanicPhoto');
    expect(layout?.sections).toBe(form?.sections);
    expect(getFormLayout(study, 'unscheduled-1', 'visitDay')).toBeUndefined();
    expect(getFormLayout(study, 'unscheduled-1', 'randomizationNumber')).toBeUndefined();
  });

  it('evaluates the forms of an unscheduled visit that holds data and puts it in the matrix', () => {
    const data = { 'unscheduled-1': { vitalSigns: { systolic: 120 } } };
    const evaluation = evaluateSubject(study, data, { today: '2026-11-26' });
    const vital = evaluation.forms.find((f) => f.visitKey === 'unscheduled-1' && f.formKey === 'vitalSigns');
    expect(vital).toBeDefined();
    const matrix = computeStatusMatrix(
      study,
      evaluation,
      { 'unscheduled-1': { vitalSigns: { saved: true, openQueryCount: 0 } } },
      ['unscheduled-1', 'unscheduled-2'],
    );
    expect(matrix['unscheduled-1']?.vitalSigns).not.toBe('none');
    expect(matrix['unscheduled-1']?.visitDay).toBe('empty');
    expect(matrix['unscheduled-2']?.vitalSigns).toBe('none');
    // The scheduled visits are there as before.
    expect(Object.keys(matrix)).toEqual([
      ...study.visits.map((v) => v.key),
      'unscheduled-1',
      'unscheduled-2',
    ]);
  });
});

describe('orderVisitKeys', () => {
  const scheduled = study.visits.map((visit) => visit.key);
  const unscheduled = { visitKey: 'unscheduled-1', repeatKey: 1, visitDate: '2026-03-10' };

  it('keeps an unscheduled visit after V1 while V1 has no saved date (schedule position first)', () => {
    const order = orderVisitKeys(study, { consentScreening: '2026-03-01' }, [unscheduled]);
    expect(order.indexOf('unscheduled-1')).toBe(order.indexOf('v1') + 1);
  });

  it('puts an unscheduled visit after the last scheduled visit dated on or before it, then by date', () => {
    const dates = { consentScreening: '2026-03-01', v1: '2026-03-02', v2: '2026-03-05', v3: '2026-03-20' };
    const order = orderVisitKeys(study, dates, [
      { visitKey: 'unscheduled-2', repeatKey: 2, visitDate: '2026-03-08' },
      unscheduled,
      { visitKey: 'unscheduled-3', repeatKey: 3, visitDate: '2026-03-25' },
    ]);
    const v2 = order.indexOf('v2');
    expect(order.slice(v2, v2 + 4)).toEqual(['v2', 'unscheduled-2', 'unscheduled-1', 'v3']);
    expect(order.indexOf('unscheduled-3')).toBe(order.indexOf('v3') + 1);
    expect(order.filter((key) => !key.startsWith('unscheduled-'))).toEqual(scheduled);
  });
});
