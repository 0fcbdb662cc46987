import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The ~49,000 most common passwords of the maintained zxcvbn-ts list (installed with the server, so
 * it works offline). Checked on the server only: the list is too big to ship to the browser, which
 * learns of a refusal from the `password_too_common` error. Compared case-insensitively, because
 * "Password123" is as guessable as "password123".
 */
let commonPasswords: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}
