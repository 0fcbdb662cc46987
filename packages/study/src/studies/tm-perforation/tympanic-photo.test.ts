import { describe, expect, it } from 'vitest';
import { evaluateForm, evaluateSubject } from '../../engine/evaluate-subject.ts';
import { serializeTracing, type Tracing } from '../../engine/tracing.ts';
import { tmPerforationStudy } from './index.ts';

// Issue 19 item 2: a tracing on the photo fills the percent and records the method; typed diameters
// still work without a photo.

const PHOTO = `7:${'0'.repeat(64)}`;

function tracing(membraneR: number, perforationR: number): string {
  const value: Tracing = {
    version: 1,
    aspect: 1,
    membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: membraneR, ry: membraneR },
    perforation: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: perforationR, ry: perforationR },
  };
  return serializeTracing(value);
}

describe('tympanicPhoto with a tracing', () => {
  it('fills the percents from the tracing and needs no typed diameters at V1', () => {
    const data = { v1: { tympanicPhoto: { photo: PHOTO, tracing: tracing(0.4, 0.16) } } };
    const evaluation = evaluateForm(tmPerforationStudy, data, 'v1', 'tympanicPhoto', { today: '2026-11-26' });
    expect(evaluation?.values.perforationPercent).toBe(40);
    expect(evaluation?.values.perforationAreaPercent).toBe(16);
    expect(evaluation?.values.measurementMethod).toBe('traced');
    expect(evaluation?.missing.map((m) => m.itemKey)).not.toContain('perforationDiameter');
    expect(evaluation?.missing.map((m) => m.itemKey)).not.toContain('totalDiameter');
  });

  it('keeps the typed method without a photo', () => {
    const data = { v1: { tympanicPhoto: { totalDiameter: 9, perforationDiameter: 3.6 } } };
    const evaluation = evaluateForm(tmPerforationStudy, data, 'v1', 'tympanicPhoto', { today: '2026-11-26' });
    expect(evaluation?.values.perforationPercent).toBe(40);
    expect(evaluation?.values.measurementMethod).toBe('typed');
    expect(evaluation?.values.perforationAreaPercent).toBeNull();
  });

  it('asks for the diameters while the tracing has one outline only', () => {
    const half = JSON.stringify({ ...JSON.parse(tracing(0.4, 0.1)), perforation: null });
    const data = { v1: { tympanicPhoto: { photo: PHOTO, tracing: half } } };
    const evaluation = evaluateForm(tmPerforationStudy, data, 'v1', 'tympanicPhoto', { today: '2026-11-26' });
    expect(evaluation?.missing.map((m) => m.itemKey)).toContain('perforationDiameter');
    expect(evaluation?.values.measurementMethod).toBeNull();
  });

  it('measures the decrease at V4 from the traced percents', () => {
    const data = {
      v1: { tympanicPhoto: { totalDiameter: 9, perforationDiameter: 3.6 } },
      v2: { tympanicPhoto: { photo: PHOTO, tracing: tracing(0.4, 0.16) } },
      v4: { tympanicPhoto: { photo: PHOTO, tracing: tracing(0.4, 0.04) } },
    };
    const evaluation = evaluateSubject(tmPerforationStudy, data, { today: '2026-11-26' });
    expect(evaluation.data.v4?.tympanicPhoto?.decreasePercent).toBe(75);
  });
});
