import { parseTracing, serializeTracing, tracingDiameterPercent } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { draftFromTracing, tracingFromDraft } from './tracing-tool.tsx';

const NO_LINES = { membrane: null, perforation: null };

describe('the tracing tool’s draft', () => {
  it('leaves out a polygon until it has three points, and stores nothing while nothing is drawn', () => {
    expect(tracingFromDraft({ membrane: null, perforation: null, lines: NO_LINES }, 1)).toBeNull();
    expect(
      tracingFromDraft(
        {
          membrane: {
            kind: 'polygon',
            points: [
              [0.1, 0.1],
              [0.9, 0.1],
            ],
          },
          perforation: null,
          lines: NO_LINES,
        },
        1,
      ),
    ).toBeNull();
  });

  it('round-trips a stored tracing that the server schema accepts', () => {
    const draft = {
      membrane: { kind: 'ellipse' as const, cx: 0.5, cy: 0.5, rx: 0.3, ry: 0.4 },
      perforation: {
        kind: 'polygon' as const,
        points: [
          [0.45, 0.45],
          [0.55, 0.45],
          [0.55, 0.55],
          [0.45, 0.55],
        ] as [number, number][],
      },
      lines: NO_LINES,
    };
    const tracing = tracingFromDraft(draft, 4 / 3);
    const stored = serializeTracing(tracing as NonNullable<typeof tracing>);
    const read = parseTracing(stored);
    expect(read).not.toBeNull();
    expect(draftFromTracing(read)).toEqual(draft);
    // the square's diagonal in true proportions (0.1 × 4/3 by 0.1) against the ellipse's 0.8 height units
    // (the aspect is stored to 4 decimals)
    expect(tracingDiameterPercent(read as NonNullable<typeof read>)).toBeCloseTo(
      (Math.hypot(0.1 * (4 / 3), 0.1) / 0.8) * 100,
      2,
    );
  });

  it('keeps drawn diameters, which then give the diameter %', () => {
    const tracing = tracingFromDraft(
      {
        membrane: null,
        perforation: null,
        lines: {
          membrane: [
            [0.2, 0.5],
            [0.8, 0.5],
          ],
          perforation: [
            [0.5, 0.4],
            [0.5, 0.6],
          ],
        },
      },
      1,
    );
    expect(tracing?.membraneDiameter).toEqual([
      [0.2, 0.5],
      [0.8, 0.5],
    ]);
    expect(tracingDiameterPercent(tracing as NonNullable<typeof tracing>)).toBeCloseTo((0.2 / 0.6) * 100, 6);
  });
});
