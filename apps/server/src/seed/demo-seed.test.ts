import { addDays, tmPerforationStudy, yearsBetween } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { birthDateFor, demoCasebookSteps } from './demo-casebooks.ts';
import { demoSubjectPlans } from './demo-subject-plans.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every date-looking string anywhere in a value (rows of repeating sections included). */
function datesIn(value: unknown): string[] {
  if (typeof value === 'string') return DATE.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(datesIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(datesIn);
  return [];
}

describe('living demo casebooks (no database)', () => {
  // Every day of more than a year, leap day included: the demo must hold whatever day it starts.
  const days = Array.from({ length: 500 }, (_, index) => addDays('2026-11-01', index) as string);

  it('never plans a step after the day the seed runs, and keeps every site recruiting month by month', () => {
    const problems: string[] = [];
    // A monthly registration chart per site has a line, not a few dots.
    const fewestMonths: Record<string, number> = { '01': 7, '02': 6, '03': 4 };
    for (const today of days) {
      const consentMonths = new Map<string, Set<string>>();
      for (const plan of demoSubjectPlans) {
        for (const step of demoCasebookSteps(plan, today)) {
          const dates = step.action.kind === 'save' ? datesIn(step.action.values) : [];
          if (step.date > today || dates.some((date) => date > step.date))
            problems.push(`${today} ${plan.initials} ${step.date} ${JSON.stringify(step.action)}`);
          if (step.action.kind === 'register')
            consentMonths.set(
              plan.site,
              (consentMonths.get(plan.site) ?? new Set()).add(step.date.slice(0, 7)),
            );
        }
      }
      for (const [site, fewest] of Object.entries(fewestMonths)) {
        const months = consentMonths.get(site)?.size ?? 0;
        if (months < fewest) problems.push(`${today} site ${site}: consents in ${months} months`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('is deterministic: the same day gives the same steps', () => {
    const run = () => demoSubjectPlans.map((plan) => demoCasebookSteps(plan, '2026-11-21'));
    expect(JSON.stringify(run())).toBe(JSON.stringify(run()));
  });

  it("enters a screened subject's V1 forms in the order, and only the forms, TMP-2026's definition gives V1", () => {
    const v1 = tmPerforationStudy.visits.find((visit) => visit.key === 'v1');
    const plan = demoSubjectPlans.find((entry) => entry.course.stage === 'complete');
    const entered = new Set<string>();
    for (const step of demoCasebookSteps(plan as (typeof demoSubjectPlans)[number], '2026-11-21')) {
      if (step.action.kind === 'save' && step.action.visitKey === 'v1') entered.add(step.action.formKey);
    }
    expect([...entered]).toEqual(v1?.forms);
  });

  it('gives birth dates with the planned age at consent, leap days included', () => {
    expect(yearsBetween(birthDateFor('2028-02-29', 30, 1), '2028-02-29')).toBe(30);
    expect(yearsBetween(birthDateFor('2026-11-21', 15, 330), '2026-11-21')).toBe(15);
  });

  it('spreads 31 subjects over three sites, unevenly, and consents over the last eight months', () => {
    const perSite = (site: string) => demoSubjectPlans.filter((plan) => plan.site === site).length;
    expect([perSite('01'), perSite('02'), perSite('03')]).toEqual([12, 11, 8]);
    const months = new Set(demoSubjectPlans.map((plan) => Math.floor(plan.consentDaysAgo / 30)));
    expect(months.size).toBe(8);
    const ages = demoSubjectPlans.map((plan) => plan.age);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...ages)).toBeLessThanOrEqual(80);
    for (const decade of [10, 20, 30, 40, 50, 60, 70])
      expect(ages.filter((age) => Math.floor(age / 10) * 10 === decade).length).toBeGreaterThanOrEqual(2);
  });
});
