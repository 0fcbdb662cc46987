import { describe, expect, it } from 'vitest';
import { permutedBlockSequence } from './permuted-blocks.ts';

describe('permutedBlockSequence', () => {
  it('is reproducible from its seed and differs between seeds', () => {
    expect(permutedBlockSequence(50, 'TMP-2026:01:seed')).toEqual(
      permutedBlockSequence(50, 'TMP-2026:01:seed'),
    );
    expect(permutedBlockSequence(50, 'TMP-2026:01:seed')).not.toEqual(
      permutedBlockSequence(50, 'TMP-2026:02:seed'),
    );
  });

  it('balances 1:1 within every block of 2 or 4', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const slots = permutedBlockSequence(100, seed);
      expect(slots).toHaveLength(100);
      expect(slots.map((s) => s.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      const blocks = new Map<number, string[]>();
      for (const slot of slots) blocks.set(slot.block, [...(blocks.get(slot.block) ?? []), slot.group]);
      for (const groups of blocks.values()) {
        expect([2, 4]).toContain(groups.length);
        expect(groups.filter((g) => g === 'treatment')).toHaveLength(groups.length / 2);
      }
      const sizes = new Set([...blocks.values()].map((g) => g.length));
      expect(sizes).toEqual(new Set([2, 4]));
    }
  });

  it('ends an odd-length list inside a block of 2', () => {
    const slots = permutedBlockSequence(7, 'odd');
    expect(slots).toHaveLength(7);
    const treatment = slots.filter((s) => s.group === 'treatment').length;
    expect(Math.abs(treatment - (7 - treatment))).toBe(1);
  });
});
