import { describe, expect, it } from 'vitest';
import { passwordIssues } from './password-policy.ts';

describe('passwordIssues', () => {
  it('accepts a long password with letters and digits', () => {
    expect(passwordIssues('cdms-demo-2026', 'pi@demo.cdms')).toEqual([]);
    expect(passwordIssues('고막천공연구2026')).toEqual([]);
  });

  it('names every rule a password breaks', () => {
    expect(passwordIssues('short1')).toEqual(['too_short']);
    expect(passwordIssues('onlyletters')).toEqual(['needs_digit']);
    expect(passwordIssues('1234567890')).toEqual(['needs_letter']);
    expect(passwordIssues(`${'x'.repeat(129)}1`)).toEqual(['too_long']);
    expect(passwordIssues('jane.doe-2026!', 'jane.doe@hospital.kr')).toEqual(['contains_email']);
  });
});
