import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

// Its own file, below randomization (which saves through data entry): the read model and the
// form reads show these too.

/** R + institution number (2 digits) + the slot's sequence within the institution (3 digits). */
export function formatRandomizationNumber(institutionNumber: string, sequence: number): string {
  return `R${institutionNumber}${String(sequence).padStart(3, '0')}`;
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
