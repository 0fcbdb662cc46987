import { describe, expect, it } from 'vitest';
import { flagLabResult } from './flag-lab-result.ts';

describe('flagLabResult', () => {
  const range = { low: 3.5, high: 5.2 };

  it('is normal at both limits and between them', () => {
    expect(flagLabResult(3.5, range)).toBe('N');
    expect(flagLabResult(5.2, range)).toBe('N');
    expect(flagLabResult(4.1, range)).toBe('N');
  });

  it('flags just outside either limit', () => {
    expect(flagLabResult(3.49, range)).toBe('L');
    expect(flagLabResult(5.21, range)).toBe('H');
  });

  it('a limit left open flags nothing on its side', () => {
    expect(flagLabResult(1000, { low: 0, high: null })).toBe('N');
    expect(flagLabResult(-1, { low: 0, high: null })).toBe('L');
    expect(flagLabResult(-1000, { low: null, high: 40 })).toBe('N');
    expect(flagLabResult(40, { low: null, high: 40 })).toBe('N');
    expect(flagLabResult(40.01, { low: null, high: 40 })).toBe('H');
  });

  it('a range of one value: only that value is normal', () => {
    expect(flagLabResult(7, { low: 7, high: 7 })).toBe('N');
    expect(flagLabResult(7.001, { low: 7, high: 7 })).toBe('H');
    expect(flagLabResult(6.999, { low: 7, high: 7 })).toBe('L');
  });

  it('flags nothing without a range', () => {
    expect(flagLabResult(99, undefined)).toBeNull();
  });
});
