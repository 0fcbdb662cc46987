/**
 * Subject alarms from the visit windows (product.md "task alarm"), as of today in UTC+9:
 * - overdue: the window has closed and the visit has no date;
 * - due: the window is open today and the visit has no date;
 * - dueSoon: the window opens within the study's due-soon days;
 * - outOfWindow: the visit was done before or after its window (a protocol deviation).
 * Only subjects in follow-up (Ongoing) get the first three; out-of-window visits count for everyone.
 */
export const visitAlarmStates = ['overdue', 'due', 'dueSoon', 'outOfWindow'] as const;
export type VisitAlarmState = (typeof visitAlarmStates)[number];
