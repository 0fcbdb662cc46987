import { describe, expect, it } from 'vitest';
import { option, repeatedOption } from './command-options.ts';

describe('command options', () => {
  const args = ['--code', 'X', '--site', 'A:a:01', '--site', 'B:b:02', '--flag', '--last'];

  it('reads an option by its first occurrence, undefined when absent or without a value', () => {
    expect(option(args, 'code')).toBe('X');
    expect(option(args, 'site')).toBe('A:a:01');
    expect(option(args, 'missing')).toBeUndefined();
    expect(option(args, 'last')).toBeUndefined();
  });

  it('reads every value of a repeatable option in order', () => {
    expect(repeatedOption(args, 'site')).toEqual(['A:a:01', 'B:b:02']);
    expect(repeatedOption(args, 'member')).toEqual([]);
  });
});
