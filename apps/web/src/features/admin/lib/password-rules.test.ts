import { describe, expect, it } from 'vitest';
import { issuesFromDetails, passwordRuleStates } from './password-rules.ts';

describe('passwordRuleStates', () => {
  it('marks every rule unmet for an empty password, without the "too long" rule', () => {
    expect(passwordRuleStates('', '')).toEqual([
      { rule: 'too_short', met: false },
      { rule: 'needs_letter', met: false },
      { rule: 'needs_digit', met: false },
      { rule: 'contains_email', met: true },
    ]);
  });

  it('meets every rule for a good password', () => {
    expect(passwordRuleStates('cdms-demo-2026', 'new.user@hospital.kr').every((state) => state.met)).toBe(
      true,
    );
  });

  it('flags a password that contains the email name', () => {
    const states = passwordRuleStates('jane.doe-2026!', 'jane.doe@hospital.kr');
    expect(states.find((state) => state.rule === 'contains_email')?.met).toBe(false);
  });

  it('shows "too long" only when the password is too long', () => {
    const states = passwordRuleStates(`${'a'.repeat(130)}1`, '');
    expect(states.find((state) => state.rule === 'too_long')).toEqual({ rule: 'too_long', met: false });
  });
});

describe('issuesFromDetails', () => {
  it('keeps known issues of a password_policy error and ignores anything else', () => {
    expect(issuesFromDetails({ issues: ['needs_digit', 'bogus', 'too_short'] })).toEqual([
      'too_short',
      'needs_digit',
    ]);
    expect(issuesFromDetails(undefined)).toEqual([]);
    expect(issuesFromDetails({ issues: 'too_short' })).toEqual([]);
  });
});
