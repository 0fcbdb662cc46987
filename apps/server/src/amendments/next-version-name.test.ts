import { describe, expect, it } from 'vitest';
import { nextVersionName } from './next-version-name.ts';

describe('nextVersionName', () => {
  it('counts the last number up, past versions the study has', () => {
    expect(nextVersionName('1.0.0', new Set(['1.0.0']))).toBe('1.0.1');
    expect(nextVersionName('1.0.0', new Set(['1.0.0', '1.0.1', '1.0.2']))).toBe('1.0.3');
    expect(nextVersionName('v9', new Set())).toBe('v10');
    expect(nextVersionName('draft', new Set())).toBe('draft.1');
  });
});
