// Dates are "YYYY-MM-DD" strings (spec §5), compared as strings: that orders them by day.

/** "HH:mm" choices of a time picker: 24 hours, minutes in steps (spec §5: 5 minutes by default). */
export const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
export function minuteChoices(stepMinutes: number): string[] {
  const minutes: string[] = [];
  for (let minute = 0; minute < 60; minute += stepMinutes) minutes.push(String(minute).padStart(2, '0'));
  return minutes;
}
