import { expect, it } from 'vitest';
import { approvalInEffect } from './amendments.ts';

it('puts an approval in effect from its date on, and never without a date', () => {
  expect(approvalInEffect('2026-12-07', '2026-12-07')).toBe(true);
  expect(approvalInEffect('2026-12-06', '2026-12-07')).toBe(true);
  expect(approvalInEffect('2026-12-08', '2026-12-07')).toBe(false);
  expect(approvalInEffect(null, '2026-12-07')).toBe(false);
});
