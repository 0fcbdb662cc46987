import { describe, expect, it } from 'vitest';
import {
  defaultRandomizationNumberFormat,
  defaultScreeningNumberFormat,
  formatNumber,
  numberFormatProblem,
  numberFormatSchema,
} from './number-formats.ts';

describe('number formats', () => {
  it('reproduces the formats every study had before formats were chosen', () => {
    expect(formatNumber(defaultScreeningNumberFormat, '01', 7)).toBe('S01-007');
    expect(formatNumber(defaultScreeningNumberFormat, '12', 1234)).toBe('S12-1234');
    expect(formatNumber(defaultRandomizationNumberFormat, '03', 15)).toBe('R03015');
  });

  it('pads {seq:N} to N digits, leaves {seq} as it is, and keeps literal text', () => {
    expect(formatNumber('SCR-{site}-{seq:4}', '01', 1)).toBe('SCR-01-0001');
    expect(formatNumber('{seq}_{site}.x', '02', 42)).toBe('42_02.x');
    expect(formatNumber('{site}{seq:1}', '02', 42)).toBe('0242');
  });

  it('accepts a valid template and names what is wrong with an invalid one', () => {
    expect(numberFormatProblem('S{site}-{seq:3}')).toBeNull();
    expect(numberFormatProblem('{site}{seq}')).toBeNull();
    expect(numberFormatProblem('')).toBe('number_format_invalid');
    expect(numberFormatProblem('S {site}{seq}')).toBe('number_format_invalid');
    expect(numberFormatProblem('S{site}{seq:0}')).toBe('number_format_invalid');
    expect(numberFormatProblem('S{site}{seq:7}')).toBe('number_format_invalid');
    expect(numberFormatProblem('S{Site}{seq}')).toBe('number_format_invalid');
    expect(numberFormatProblem('S{site}{seq}{')).toBe('number_format_invalid');
    expect(numberFormatProblem('한{site}{seq}')).toBe('number_format_invalid');
    expect(numberFormatProblem(`${'A'.repeat(25)}{site}{seq}`)).toBe('number_format_invalid');
    expect(numberFormatProblem('S-{seq:3}')).toBe('number_format_needs_site');
    expect(numberFormatProblem('{site}{site}{seq}')).toBe('number_format_needs_site');
    expect(numberFormatProblem('S{site}-')).toBe('number_format_needs_seq');
    expect(numberFormatProblem('{site}{seq}{seq:2}')).toBe('number_format_needs_seq');
  });

  it('trims a template and refuses an invalid one with its problem as the message', () => {
    expect(numberFormatSchema.parse('  S{site}-{seq:3} ')).toBe('S{site}-{seq:3}');
    const refused = numberFormatSchema.safeParse('S-{seq:3}');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('number_format_needs_site');
  });

  it('refuses to format with an invalid template', () => {
    expect(() => formatNumber('S {site}', '01', 1)).toThrow('not a number format');
  });
});
