/**
 * A 1:1 allocation sequence in permuted blocks of 2 and 4 (block size chosen at random per block),
 * reproducible from a seed: the same seed and stratum always give the same list, so a statistician
 * can regenerate and check it.
 */
export type TreatmentGroup = 'treatment' | 'control';

export interface AllocationSlot {
  sequence: number;
  group: TreatmentGroup;
  block: number;
}

/** mulberry32 over a 32-bit FNV-1a hash of the seed text: small, fast, and the same everywhere. */
export function seededRandom(seed: string): () => number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return mulberry32(hash >>> 0);
}

/** The mulberry32 generator from a 32-bit state: numbers in [0, 1), the same sequence on every run. */
export function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function permutedBlockSequence(length: number, seed: string): AllocationSlot[] {
  const random = seededRandom(seed);
  const slots: AllocationSlot[] = [];
  let block = 0;
  while (slots.length < length) {
    block += 1;
    const remaining = length - slots.length;
    // A block of 4 only where it fits, so the list ends on a complete block whenever it can.
    const size = remaining >= 4 && random() < 0.5 ? 4 : 2;
    const groups: TreatmentGroup[] = [];
    for (let i = 0; i < size / 2; i++) groups.push('treatment', 'control');
    for (let i = groups.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [groups[i], groups[j]] = [groups[j] as TreatmentGroup, groups[i] as TreatmentGroup];
    }
    for (const group of groups.slice(0, remaining)) slots.push({ sequence: slots.length + 1, group, block });
  }
  return slots;
}
