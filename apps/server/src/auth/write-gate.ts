import type { Action } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from './principal.ts';

/**
 * A check that a study's site data writes wait for beyond the permission matrix — issue 51's training
 * gate (`training-gate/training-gate.ts`). app.ts hands it to the access hooks (`route-access.ts`: a
 * route declared with one of its actions waits for it) and to `/api/auth/me` (the membership's
 * `trainingPending`), so auth/ builds on no feature folder.
 */
export interface WriteGate {
  /** The actions it holds back. */
  actions: readonly Action[];
  /** Throws the refusal (an AppError) when the principal's write of `action` must wait. */
  refuse(
    db: Kysely<Database> | Transaction<Database>,
    principal: Principal,
    studyId: number,
    action: Action,
  ): Promise<void>;
  /** The refusal as a route's documented 403 says it. */
  refusal: string;
  /** The principal's studies where their writes are held back now. */
  heldStudies(db: Kysely<Database>, principal: Principal): Promise<Set<number>>;
}
