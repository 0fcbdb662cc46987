// Dates are "YYYY-MM-DD" strings (spec §5), compared as strings: that orders them by day.

const SEOUL_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Today in the study's time zone (Korea, UTC+9, no daylight saving), whatever the browser's zone is. */
export function todayInSeoul(now: Date = new Date()): string {
  return new Date(now.getTime() + SEOUL_OFFSET_MS).toISOString().slice(0, 10);
}

/** "HH:mm" choices of a time picker: 24 hours, minutes in steps (spec §5: 5 minutes by default). */
export const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
export function minuteChoices(stepMinutes: number): string[] {
  const minutes: string[] = [];
  for (let minute = 0; minute < 60; minute += stepMinutes) minutes.push(String(minute).padStart(2, '0'));
  return minutes;
}
