/**
 * The password rules, shared so the browser can say what is wrong before the server refuses:
 * 10 to 128 characters, at least one letter and one digit, not the email address or its name part.
 */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordIssue = 'too_short' | 'too_long' | 'needs_letter' | 'needs_digit' | 'contains_email';

export function passwordIssues(password: string, email?: string): PasswordIssue[] {
  const issues: PasswordIssue[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) issues.push('too_short');
  if (password.length > PASSWORD_MAX_LENGTH) issues.push('too_long');
  if (!/\p{L}/u.test(password)) issues.push('needs_letter');
  if (!/\p{Nd}/u.test(password)) issues.push('needs_digit');
  if (email) {
    const lowered = password.toLowerCase();
    const localPart = email.toLowerCase().split('@')[0] ?? '';
    if (lowered.includes(email.toLowerCase()) || (localPart.length >= 4 && lowered.includes(localPart))) {
      issues.push('contains_email');
    }
  }
  return issues;
}
