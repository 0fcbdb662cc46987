import { type PasswordIssue, passwordIssues } from '@cdms/contract';

/** Every rule of the shared password policy, in the order the form lists them. */
export const passwordRules: readonly PasswordIssue[] = [
  'too_short',
  'too_long',
  'needs_letter',
  'needs_digit',
  'contains_email',
];

export interface PasswordRuleState {
  rule: PasswordIssue;
  met: boolean;
}

/**
 * The rules to show under a password input while the user types, each met or not, using the same
 * `passwordIssues` the server applies. "At most 128" is only shown when broken: it is noise otherwise.
 */
export function passwordRuleStates(password: string, email: string): PasswordRuleState[] {
  const issues = new Set(passwordIssues(password, email.trim() || undefined));
  return passwordRules
    .filter((rule) => rule !== 'too_long' || issues.has(rule))
    .map((rule) => ({ rule, met: !issues.has(rule) }));
}

/** The password issues named in a server error's details (422 password_policy), ignoring anything else. */
export function issuesFromDetails(details: unknown): PasswordIssue[] {
  const issues = (details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return passwordRules.filter((rule) => issues.includes(rule));
}
