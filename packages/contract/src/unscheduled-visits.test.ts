import { describe, expect, it } from 'vitest';
import { unscheduledVisitDateProblem } from './unscheduled-visits.ts';

describe('an unscheduled visit date', () => {
  it('lies between consent and today (UTC+9), both days allowed', () => {
    expect(unscheduledVisitDateProblem('2026-11-26', '2026-11-01', '2026-11-26')).toBeNull();
    expect(unscheduledVisitDateProblem('2026-11-01', '2026-11-01', '2026-11-26')).toBeNull();
    expect(unscheduledVisitDateProblem('2026-11-27', '2026-11-01', '2026-11-26')).toBe(
      'unscheduled_visit_date_in_future',
    );
    expect(unscheduledVisitDateProblem('2026-10-31', '2026-11-01', '2026-11-26')).toBe(
      'unscheduled_visit_before_consent',
    );
  });
});
