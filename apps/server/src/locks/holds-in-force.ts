import { type GuardedWrite, type Hold, refuseUnderHolds } from '@cdms/contract';
import type { Expression, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The freezes and locks in force over one thing, read from `holds`, and the one guard every write
 * path calls before it changes anything: `refuseWriteUnderHolds` answers 423 `frozen`/`locked` with
 * the level to lift first (packages/contract lock-rules.ts decides), in the reader's language.
 *
 * The guard runs inside the write's transaction after the subject's row lock where there is one:
 * placing or lifting a subject's or a form's hold takes the same lock, so a write and a hold on the
 * same subject never cross. A site's or the study's hold placed while a write is under way holds
 * every write that starts after it commits.
 */

/** What a write touches: always a study and a site; a subject and one of its forms when it has them. */
export interface HoldTarget {
  studyId: number;
  siteId: number;
  subjectId?: number;
  /** Both or neither: the form the write changes. */
  visitKey?: string;
  formKey?: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** The holds in force over `target`: the study's, its site's, its subject's and its form's. */
export async function holdsOver(executor: Executor, target: HoldTarget): Promise<Hold[]> {
  const rows = await holdsOverQuery(executor, target).execute();
  return rows.map((row) => ({ kind: row.kind, level: row.level }));
}

/**
 * `holdsOver` as a query a caller can nest in a statement of its own (a save's first read, which
 * takes the site from the subject's row in the same statement: `siteId` may be that expression).
 */
export function holdsOverQuery(
  executor: Executor,
  target: Omit<HoldTarget, 'siteId'> & { siteId: number | Expression<number> },
) {
  return executor
    .selectFrom('holds')
    .select(['kind', 'level'])
    .where('study_id', '=', target.studyId)
    .where('lifted_at', 'is', null)
    .where((eb) => {
      const covering = [
        eb('level', '=', 'study'),
        eb.and([eb('level', '=', 'site'), eb('site_id', '=', target.siteId)]),
      ];
      if (target.subjectId !== undefined) {
        covering.push(eb.and([eb('level', '=', 'subject'), eb('subject_id', '=', target.subjectId)]));
        if (target.visitKey !== undefined && target.formKey !== undefined) {
          covering.push(
            eb.and([
              eb('level', '=', 'form'),
              eb('subject_id', '=', target.subjectId),
              eb('visit_key', '=', target.visitKey),
              eb('form_key', '=', target.formKey),
            ]),
          );
        }
      }
      return eb.or(covering);
    });
}

/** A subject row as the write paths hold it, as a hold target (optionally one of its forms). */
export function subjectTarget(
  subject: { id: number; study_id: number; site_id: number },
  form?: { visitKey: string; formKey: string },
): HoldTarget {
  const target: HoldTarget = { studyId: subject.study_id, siteId: subject.site_id, subjectId: subject.id };
  if (form) {
    target.visitKey = form.visitKey;
    target.formKey = form.formKey;
  }
  return target;
}

/** The 423 of `refuseWriteUnderHolds`, as a route lists it among its refusals (`http/refusals.ts`). */
export const HOLD_REFUSAL =
  'A freeze (`frozen`) or lock (`locked`) of the form, subject, site or study refuses this write; `details.level` names the hold to lift first.';

/** 423 when a hold in force over `target` refuses `write`; nothing otherwise. */
export async function refuseWriteUnderHolds(
  executor: Executor,
  write: GuardedWrite,
  target: HoldTarget,
): Promise<void> {
  refuseWriteUnderTheseHolds(write, await holdsOver(executor, target));
}

/** 423 when one of `holds` (read by the caller under the subject's lock) refuses `write`. */
export function refuseWriteUnderTheseHolds(write: GuardedWrite, holds: readonly Hold[]): void {
  const refusal = refuseUnderHolds(write, holds);
  if (refusal === null) return;
  throw new AppError(
    refusal.status,
    refusal.code,
    { level: HOLD_LEVEL_WORDS[refusal.level] },
    { level: refusal.level },
  );
}

/** The level as the refusal's message names it (error-messages.ts `frozen`, `locked`). */
export const HOLD_LEVEL_WORDS = {
  form: { ko: '이 양식', en: 'This form' },
  subject: { ko: '이 대상자', en: 'This subject' },
  site: { ko: '이 기관', en: 'This site' },
  study: { ko: '이 연구', en: 'This study' },
} as const;

/** A query's form as a hold target. */
export function queryHoldTarget(query: {
  study_id: number;
  site_id: number;
  subject_id: number;
  visit_key: string;
  form_key: string;
}): HoldTarget {
  return {
    studyId: query.study_id,
    siteId: query.site_id,
    subjectId: query.subject_id,
    visitKey: query.visit_key,
    formKey: query.form_key,
  };
}
