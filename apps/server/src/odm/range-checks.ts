import type { ItemDefinition } from '@cdms/study';

/**
 * The RangeChecks of an item in ODM (1.3.2 and 2.0 alike): the soft range (min/max, Soft unless its
 * severity is hard) and the hard limits (hardMin/hardMax, always Hard: the save refuses past them).
 */
export function odmRangeChecks(
  item: ItemDefinition,
): { comparator: 'GE' | 'LE'; softHard: 'Soft' | 'Hard'; value: number }[] {
  const softHard = item.rangeSeverity === 'hard' ? 'Hard' : 'Soft';
  const checks: { comparator: 'GE' | 'LE'; softHard: 'Soft' | 'Hard'; value: number }[] = [];
  if (item.hardMin !== undefined) checks.push({ comparator: 'GE', softHard: 'Hard', value: item.hardMin });
  if (item.min !== undefined) checks.push({ comparator: 'GE', softHard, value: item.min });
  if (item.max !== undefined) checks.push({ comparator: 'LE', softHard, value: item.max });
  if (item.hardMax !== undefined) checks.push({ comparator: 'LE', softHard: 'Hard', value: item.hardMax });
  return checks;
}
