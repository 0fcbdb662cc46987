import { type HoldKindValue, type HoldLevel, holdLevels } from './holds.ts';

/**
 * Freezing and locking (product.md "Queries, SDV, freezing, locking"; issue 15), as data and two pure
 * functions, so that every write path, the abilities the browser is told, the browser's own marks and
 * the tests read the same rules (the server's guard is apps/server/src/locks/holds-in-force.ts).
 *
 * A hold is a freeze or a lock at one of four levels — form, subject, site, study — and covers what
 * lies below it (a frozen site freezes its subjects and their forms).
 * - Freeze (CRA, DM): the data stop changing. Queries and SDV go on, and the investigator may still
 *   sign: freezing is what makes the casebook ready to sign, and signing changes no data.
 * - Lock (DM only): nothing changes, not even queries, SDV or signatures. A signature given before
 *   the lock stays valid.
 * A refused write is a 423 with code `frozen` or `locked` and the level that holds it.
 */

/** The levels and kinds of holds.ts. */
export const lockLevels = holdLevels;
export type LockLevel = HoldLevel;

export type HoldKind = HoldKindValue;

/** A freeze or lock in force over the thing being written. */
export interface Hold {
  kind: HoldKind;
  level: LockLevel;
}

/** Every write path a hold can refuse. */
export const guardedWrites = [
  'subject.create',
  'form.save',
  'form.reset',
  'form.comment',
  'subject.randomize',
  'subject.delete',
  'casebook.sign',
  'query.open',
  'query.answer',
  'query.manage',
  'sdv.mark',
] as const;
export type GuardedWrite = (typeof guardedWrites)[number];

/** What a freeze still allows: the data-cleaning work and the investigator's signature. */
const ALLOWED_WHILE_FROZEN: ReadonlySet<GuardedWrite> = new Set<GuardedWrite>([
  'casebook.sign',
  'query.open',
  'query.answer',
  'query.manage',
  'sdv.mark',
]);

/** Wider levels first: the study's hold is the one to name when several apply. */
export const HOLD_LEVEL_WIDTH: Readonly<Record<LockLevel, number>> = {
  study: 4,
  site: 3,
  subject: 2,
  form: 1,
};

/** What a lock adds to a hold's strength: more than any level's width, so any lock outranks any freeze. */
export const LOCK_WEIGHT = 10;

/**
 * A hold's strength as one number (a lock outranks a freeze, then the wider level wins): the order
 * `strongestHold` names holds in, and what the readiness board's SQL ranks holds by.
 */
export function holdStrength(hold: Hold): number {
  return (hold.kind === 'locked' ? LOCK_WEIGHT : 0) + HOLD_LEVEL_WIDTH[hold.level];
}

export interface HoldRefusal {
  status: 423;
  code: HoldKind;
  level: LockLevel;
}

/** Whether `write` may go ahead under `hold`. */
export function holdAllows(hold: Hold, write: GuardedWrite): boolean {
  return hold.kind === 'frozen' && ALLOWED_WHILE_FROZEN.has(write);
}

/**
 * The refusal of `write` under the holds in force, or null when it may go ahead. When several holds
 * refuse it, a lock is named before a freeze, and a wider level before a narrower one: the hold a
 * user must have lifted first.
 */
export function refuseUnderHolds(write: GuardedWrite, holds: readonly Hold[]): HoldRefusal | null {
  const hold = strongestHold(holds.filter((candidate) => !holdAllows(candidate, write)));
  if (hold === null) return null;
  return { status: 423, code: hold.kind, level: hold.level };
}

/**
 * The strongest of the holds (a lock before a freeze, a wider level before a narrower one): the mark a
 * cell or a row shows, and the hold to lift first. Null when there is none.
 */
export function strongestHold<T extends Hold>(holds: readonly T[]): T | null {
  let strongest: T | null = null;
  for (const hold of holds) if (!strongest || holdStrength(hold) > holdStrength(strongest)) strongest = hold;
  return strongest;
}

/** Where a hold was placed: its level and, below the study, the site, subject and form it names. */
export interface HoldPlace {
  level: LockLevel;
  siteId?: number | null;
  subjectId?: number | null;
  visitKey?: string | null;
  formKey?: string | null;
}

/** What a write or an ability is about: a site, one of its subjects, or one of the subject's forms. */
export interface HoldTargetPlace {
  siteId: number;
  subjectId?: number;
  visitKey?: string;
  formKey?: string;
}

/**
 * Whether a hold placed at `hold` covers `target`: a hold covers what lies below it (the study every
 * site, a site its subjects, a subject its forms), never what lies above it — a form's lock does not
 * hold its subject. The one reading of "which holds are over this" for the places that judge holds
 * they have already read (the subject list's delete, the memberships' abilities, the casebooks); the
 * database's own is `holdsOverQuery` on the server.
 */
export function holdCovers(hold: HoldPlace, target: HoldTargetPlace): boolean {
  switch (hold.level) {
    case 'study':
      return true;
    case 'site':
      return hold.siteId === target.siteId;
    case 'subject':
      return target.subjectId !== undefined && hold.subjectId === target.subjectId;
    case 'form':
      return (
        target.subjectId !== undefined &&
        target.visitKey !== undefined &&
        hold.subjectId === target.subjectId &&
        hold.visitKey === target.visitKey &&
        hold.formKey === target.formKey
      );
  }
}
