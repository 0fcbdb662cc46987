import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { audiogramLayout } from './audiogram.ts';

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

  it('is null for a study without the form', () => {
    expect(audiogramLayout({ ...tmPerforationStudy, forms: [] })).toBeNull();
  });
});
