import { SAE_REPORT_HOURS } from '@cdms/contract';

/**
 * The SAE report's clock (ICH E6(R3): the investigator reports a serious adverse event to the sponsor
 * immediately, within 24 hours of becoming aware of it). Instants only: 24 hours later is the same
 * clock time in Korea the next day (Korea has no daylight saving), across midnight, months and years.
 */
export function dueAtOf(awarenessAt: Date): Date {
  return new Date(awarenessAt.getTime() + SAE_REPORT_HOURS * 3_600_000);
}

/** Overdue: not submitted yet and past its due time. A submitted report is no longer on the clock. */
export function isOverdue(report: { first_submitted_at: Date | null; due_at: Date }, now: Date): boolean {
  return report.first_submitted_at === null && report.due_at.getTime() < now.getTime();
}

/** Hours before the due time at which the site is reminded (besides at the due time itself). */
export const SAE_REMINDER_HOURS_LEFT = 12;
