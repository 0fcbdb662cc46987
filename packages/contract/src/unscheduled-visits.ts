import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { reasonSchema } from './reason.ts';

/**
 * Unscheduled visits (issue 19 item 1): site staff add one to a subject with its date and reason; its
 * forms are those the study definition declares (`unscheduledVisit`), its data live under the visit key
 * `unscheduled-<repeatKey>`. An empty one may be deleted with a reason; one with saved data may not.
 */
export const addUnscheduledVisitRequestSchema = z.strictObject({
  /** The day of the visit, YYYY-MM-DD: not after today (UTC+9), not before the subject's consent. */
  visitDate: calendarDateSchema,
  reason: reasonSchema,
});
export type AddUnscheduledVisitRequest = z.input<typeof addUnscheduledVisitRequestSchema>;

/**
 * What is wrong with an unscheduled visit's date, or null: after today (UTC+9) or before the subject's
 * consent. The server refuses with this code; the add dialog says the same before sending.
 */
export function unscheduledVisitDateProblem(
  visitDate: string,
  consentDate: string,
  today: string,
): 'unscheduled_visit_date_in_future' | 'unscheduled_visit_before_consent' | null {
  if (visitDate > today) return 'unscheduled_visit_date_in_future';
  if (visitDate < consentDate) return 'unscheduled_visit_before_consent';
  return null;
}

export const deleteUnscheduledVisitRequestSchema = z.strictObject({ reason: reasonSchema });
export type DeleteUnscheduledVisitRequest = z.input<typeof deleteUnscheduledVisitRequestSchema>;

/** Path parameter: the repeat key (1, 2, …) of the subject's unscheduled visit. */
export const repeatKeyParamSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,8}$/)
  .transform(Number);

export const unscheduledVisitSchema = z.object({
  /** `unscheduled-<repeatKey>`: the key its forms, queries, SDV marks and holds use. */
  visitKey: z.string(),
  repeatKey: z.number().int(),
  visitDate: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  /** Whether any of its forms holds saved data (then it cannot be deleted). */
  hasData: z.boolean(),
});
export type UnscheduledVisit = z.infer<typeof unscheduledVisitSchema>;
