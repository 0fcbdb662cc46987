const KST_OFFSET_MS = 9 * 3600 * 1000;

/**
 * Today's date in Korea, YYYY-MM-DD. The study runs on Korean calendar days (the spec shows
 * every time in UTC+9), so "today" for date rules and filters is the Korean one.
 */
export function todayInKorea(now = new Date()): string {
  return new Date(now.getTime() + KST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Korean calendar day starts, as UTC. */
export function startOfKoreanDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - KST_OFFSET_MS);
}
