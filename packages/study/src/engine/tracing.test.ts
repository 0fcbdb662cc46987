import { describe, expect, it } from 'vitest';
import {
  parsePhotoReference,
  parseTracing,
  polygonArea,
  polygonMaxDiameter,
  serializeTracing,
  type Tracing,
  tracingAreaPercent,
  tracingDiameterPercent,
} from './tracing.ts';

function circle(cx: number, cy: number, r: number, n: number, aspect = 1): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / n;
    return [cx + (r * Math.cos(angle)) / aspect, cy + r * Math.sin(angle)];
  });
}

describe('polygon geometry', () => {
  it('gives the exact area of known polygons, either winding', () => {
    expect(
      polygonArea([
        [0, 0],
        [4, 0],
        [4, 3],
        [0, 3],
      ]),
    ).toBe(12);
    expect(
      polygonArea([
        [0, 0],
        [0, 3],
        [4, 0],
      ]),
    ).toBe(6);
    // An L shape: a 2×2 square with a 1×1 corner cut away.
    expect(
      polygonArea([
        [0, 0],
        [2, 0],
        [2, 1],
        [1, 1],
        [1, 2],
        [0, 2],
      ]),
    ).toBe(3);
  });

  it('measures the longest diameter between vertices', () => {
    expect(
      polygonMaxDiameter([
        [0, 0],
        [4, 0],
        [4, 3],
        [0, 3],
      ]),
    ).toBe(5);
  });
});

describe('tracing percentages', () => {
  it('a circle in a circle gives the analytic ratio within 0.5 %', () => {
    const tracing: Tracing = {
      version: 1,
      aspect: 1,
      membrane: { kind: 'polygon', points: circle(0.5, 0.5, 0.4, 180) },
      perforation: { kind: 'polygon', points: circle(0.45, 0.5, 0.2, 180) },
    };
    const area = tracingAreaPercent(tracing) as number;
    expect(Math.abs(area - 25) / 25).toBeLessThan(0.005);
    expect(Math.abs((tracingDiameterPercent(tracing) as number) - 50) / 50).toBeLessThan(0.005);
  });

  it('measures in true proportions on a wide photo', () => {
    // On a 4:3 photo a circle is 0.75 as wide in x-fractions as in y-fractions.
    const aspect = 4 / 3;
    const tracing: Tracing = {
      version: 1,
      aspect,
      membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.3 / aspect, ry: 0.3 },
      perforation: { kind: 'polygon', points: circle(0.5, 0.5, 0.15, 360, aspect) },
    };
    expect(tracingAreaPercent(tracing)).toBeCloseTo(25, 1);
    expect(tracingDiameterPercent(tracing)).toBeCloseTo(50, 1);
  });

  it('takes the drawn diameters when both are drawn', () => {
    const tracing: Tracing = {
      version: 1,
      aspect: 2,
      membrane: null,
      perforation: null,
      membraneDiameter: [
        [0.1, 0.5],
        [0.6, 0.5],
      ],
      perforationDiameter: [
        [0.5, 0.2],
        [0.5, 0.6],
      ],
    };
    // membrane 0.5 × 2 = 1 height unit; perforation 0.4 height units.
    expect(tracingDiameterPercent(tracing)).toBeCloseTo(40, 10);
    expect(tracingAreaPercent(tracing)).toBeNull();
  });

  it('has no percentages while an outline is missing', () => {
    const tracing: Tracing = {
      version: 1,
      aspect: 1,
      membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.4, ry: 0.4 },
      perforation: null,
    };
    expect(tracingAreaPercent(tracing)).toBeNull();
    expect(tracingDiameterPercent(tracing)).toBeNull();
  });
});

describe('parseTracing', () => {
  it('reads back what serializeTracing wrote', () => {
    const tracing: Tracing = {
      version: 1,
      aspect: 1.5,
      membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.3, ry: 0.4 },
      perforation: {
        kind: 'polygon',
        points: [
          [0.4, 0.4],
          [0.6, 0.4],
          [0.5, 0.6],
        ],
      },
    };
    expect(parseTracing(serializeTracing(tracing))).toEqual(tracing);
  });

  it.each([
    ['not JSON', '{'],
    ['a number', 42],
    [
      'a coordinate outside the photo',
      '{"version":1,"aspect":1,"membrane":{"kind":"ellipse","cx":1.2,"cy":0.5,"rx":0.1,"ry":0.1},"perforation":null}',
    ],
    [
      'a polygon of two points',
      '{"version":1,"aspect":1,"membrane":{"kind":"polygon","points":[[0,0],[1,1]]},"perforation":null}',
    ],
    ['an unknown key', '{"version":1,"aspect":1,"membrane":null,"perforation":null,"percent":30}'],
    ['another version', '{"version":2,"aspect":1,"membrane":null,"perforation":null}'],
  ])('refuses %s', (_, value) => {
    expect(parseTracing(value)).toBeNull();
  });
});

describe('parsePhotoReference', () => {
  it('reads id and hash', () => {
    const sha = 'a'.repeat(64);
    expect(parsePhotoReference(`12:${sha}`)).toEqual({ photoId: 12, sha256: sha });
    expect(parsePhotoReference(`0:${sha}`)).toBeNull();
    expect(parsePhotoReference(`12:${'A'.repeat(64)}`)).toBeNull();
    expect(parsePhotoReference(`99999999999:${sha}`)).toBeNull();
  });
});
