import { describe, expect, it } from 'vitest';
import { isLockedNow } from './lock-status.ts';

describe('isLockedNow', () => {
  const now = new Date('2026-03-02T05:00:00Z');
  it('is locked only while the lockout lasts', () => {
    expect(isLockedNow(null, now)).toBe(false);
    expect(isLockedNow('2026-03-02T05:10:00Z', now)).toBe(true);
    expect(isLockedNow('2026-03-02T04:59:00Z', now)).toBe(false);
  });
});
