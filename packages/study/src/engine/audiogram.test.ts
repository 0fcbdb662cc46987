import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import {
  audiogramBandSpan,
  audiogramDbTicks,
  audiogramEarOf,
  audiogramLayout,
  audiogramPoints,
  audiogramXFraction,
  audiogramYFraction,
} from './audiogram.ts';

describe('the audiogram layout of the PTA form', () => {
  it("reads the first study's frequencies, threshold items and hearing bands from its definition", () => {
    const layout = audiogramLayout(tmPerforationStudy);
    expect(layout?.frequencies).toEqual([500, 1000, 2000, 4000]);
    expect(layout?.items.air.get(2000)).toBe('air2000');
    expect(layout?.items.bone.get(500)).toBe('bone500');
    expect(layout?.bands.map((band) => [band.min, band.max, band.code])).toEqual([
      [-10, 15, '001'],
      [16, 25, '002'],
      [26, 40, '003'],
      [41, 55, '004'],
      [56, 70, '005'],
      [71, 90, '006'],
      [91, null, '007'],
    ]);
    expect(layout?.bands[6]?.label.en).toBe('Profound (91 dB or more)');
  });

  it('is null for a study without the form or without the audiogram role', () => {
    expect(audiogramLayout({ ...tmPerforationStudy, forms: [] })).toBeNull();
    expect(audiogramLayout({ ...tmPerforationStudy, roles: undefined })).toBeNull();
  });

  it("names the form and reads the treated ear's codes as the role gives them", () => {
    const layout = audiogramLayout(tmPerforationStudy);
    if (!layout) throw new Error('no audiogram');
    expect(layout.form).toBe(tmPerforationStudy.roles?.audiogram?.form);
    expect([audiogramEarOf(layout, 'R'), audiogramEarOf(layout, 'L'), audiogramEarOf(layout, 'B')]).toEqual([
      'R',
      'L',
      null,
    ]);
    expect(audiogramEarOf({ ...layout, treatedEar: null }, 'R')).toBeNull();
  });
});

describe('the audiogram axes and points', () => {
  it('puts frequency on a log axis (each octave the same width) and hearing level downwards, clamped', () => {
    expect(audiogramXFraction(250)).toBe(0);
    expect(audiogramXFraction(8000)).toBe(1);
    expect(audiogramXFraction(1000)).toBeCloseTo(0.4, 10);
    expect(audiogramXFraction(2000) - audiogramXFraction(1000)).toBeCloseTo(
      audiogramXFraction(4000) - audiogramXFraction(2000),
      10,
    );
    expect(audiogramYFraction(-10)).toBe(0);
    expect(audiogramYFraction(120)).toBe(1);
    expect(audiogramYFraction(55)).toBeCloseTo(0.5, 10);
    expect(audiogramYFraction(140)).toBe(1);
    expect(audiogramYFraction(-30)).toBe(0);
    expect(audiogramDbTicks()).toHaveLength(14);
  });

  it('shades a band between its whole-dB limits, open bands to the edge', () => {
    const layout = audiogramLayout(tmPerforationStudy);
    const [normal, , , , , , profound] = layout?.bands ?? [];
    if (!normal || !profound) throw new Error('bands missing');
    expect(audiogramBandSpan(normal)).toEqual({ top: 0, bottom: audiogramYFraction(15.5) });
    expect(audiogramBandSpan(profound)).toEqual({ top: audiogramYFraction(90.5), bottom: 1 });
  });

  it('reads numeric thresholds in frequency order and none for a conduction marked not done', () => {
    const layout = audiogramLayout(tmPerforationStudy);
    if (!layout) throw new Error('no layout');
    const values: Record<string, unknown> = {
      air4000: 50,
      air500: 30,
      air1000: '',
      bone500: 10,
      boneNd: true,
    };
    expect(audiogramPoints(layout, (key) => values[key])).toEqual({
      air: [
        { hz: 500, db: 30 },
        { hz: 4000, db: 50 },
      ],
      bone: [],
    });
  });
});
