import { describe, expect, it } from 'vitest';
import { bodyIdSchema, pageQuerySchema, pageSizeQuerySchema, paramIdSchema } from './ids.ts';

describe('ids', () => {
  it('reads path and query ids only as canonical positive int4 decimals', () => {
    expect(paramIdSchema.parse('1')).toBe(1);
    expect(paramIdSchema.parse('2147483647')).toBe(2147483647);
    for (const text of [
      '0x13',
      '1.6e1',
      '16.0',
      ' 16',
      '16 ',
      '+16',
      '016',
      '0',
      '-1',
      '2147483648',
      '',
      '1_0',
    ])
      expect(paramIdSchema.safeParse(text).success, text).toBe(false);
  });

  it('takes body ids as JSON integers in 1…2^31 − 1', () => {
    expect(bodyIdSchema.parse(16)).toBe(16);
    for (const value of [0, -1, 1.5, 2147483648, 9999999999, '16'])
      expect(bodyIdSchema.safeParse(value).success, String(value)).toBe(false);
  });

  it('reads page numbers and sizes as canonical decimals', () => {
    expect(pageQuerySchema.parse('3')).toBe(3);
    expect(pageQuerySchema.safeParse('100001').success).toBe(false);
    expect(pageQuerySchema.safeParse('1e1').success).toBe(false);
    const size = pageSizeQuerySchema([10, 20, 50]);
    expect(size.parse('20')).toBe(20);
    expect(size.safeParse('30').success).toBe(false);
    expect(size.safeParse('20.0').success).toBe(false);
  });
});
