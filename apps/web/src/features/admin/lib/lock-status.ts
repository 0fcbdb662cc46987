/** A lockout only matters while it lasts: a `lockedUntil` in the past means the account is not locked. */
export function isLockedNow(lockedUntil: string | null, now: Date = new Date()): boolean {
  return lockedUntil !== null && Date.parse(lockedUntil) > now.getTime();
}
