import { formatNumber } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

// Its own file, below randomization (which saves through data entry): the read model and the
// form reads show these too.

/**
 * A randomization number in the study's format (`studies.randomization_number_format`, by default
 * `R{site}{seq:3}`: R + institution number + the slot's sequence within the institution).
 */
export function formatRandomizationNumber(
  format: string,
  institutionNumber: string,
  sequence: number,
): string {
  return formatNumber(format, institutionNumber, sequence);
}

/** Whether the subject has taken a slot of the allocation list. */
export async function isRandomized(
  executor: Kysely<Database> | Transaction<Database>,
  subjectId: number,
): Promise<boolean> {
  const slot = await executor
    .selectFrom('randomization_slots')
    .select('id')
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  return slot !== undefined;
}

/** Randomization is for a subject still in screening and without a number. */
export function awaitsRandomization(status: string, randomized: boolean): boolean {
  return status === 'screening' && !randomized;
}
