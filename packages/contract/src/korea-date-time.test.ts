import { describe, expect, it } from 'vitest';
import { koreaDateTime } from './korea-time.ts';

describe('koreaDateTime', () => {
  it('shows an instant in UTC+9, to the minute or to the second', () => {
    expect(koreaDateTime('2026-12-05T15:30:45.123Z')).toBe('2026-12-06 00:30');
    expect(koreaDateTime(new Date('2026-12-05T15:30:45.123Z'), { seconds: true })).toBe(
      '2026-12-06 00:30:45',
    );
  });
});
