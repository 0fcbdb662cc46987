import { passwordIssues } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords.ts';

describe('isCommonPassword', () => {
  it('finds common passwords that pass the length, letter and digit rules, in any case', () => {
    for (const password of ['password1234', 'qwerty12345', 'Password1234', 'QWERTY12345']) {
      expect(passwordIssues(password)).toEqual([]);
      expect(isCommonPassword(password)).toBe(true);
    }
  });

  it('lets an uncommon password through', () => {
    expect(isCommonPassword('kettle-Orbit-73-window')).toBe(false);
  });
});
