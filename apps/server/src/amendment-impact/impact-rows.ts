import { impactKinds } from '@cdms/contract';
import type { JsonValue } from '@cdms/study';

// What an amendment's impact analysis reports: one row per thing the amendment would change in the
// stored data of one subject, and the counts of a whole run. Plain JSON, so a caller may store the rows
// as they come (`analyzeAmendmentImpact`'s `onRows`).

/** Every kind of row, in the order a subject's rows are sorted by within one place (the contract's list). */
export const IMPACT_KINDS = impactKinds;

/**
 * - `valueRenamed`: values move to a renamed item (`before`/`after`: the live and next item path) or
 *   a renamed form (`itemKey` null; the live and next form key).
 * - `valueConverted`: a value under a type change (`before` as stored, `after` as the next type
 *   reads it; a widening such as integer → decimal keeps the value).
 * - `valueRecoded`: a choice's code mapped to another (`before`, `after`: the codes).
 * - `valueRetired`: a value of a retired item, group, form or visit (`before`: the value).
 * - `formIncomplete`, `formComplete`: a saved form whose status becomes `dash` (required items
 *   missing) or `check` (`before`/`after`: the statuses).
 * - `queryOpens`, `queryCloses`: a system query (an edit check) that would open (`after`: its check
 *   id) or close (`before`: its check id).
 * - `derivedChanges`: a stored derived value that would change (`before`, `after`; null: none).
 * - `sdvInvalidated`: a verified SDV mark of an item whose value changes, is converted or re-coded,
 *   or is retired (`before` 'verified', `after` 'changed').
 * - `signatureInvalidated`: a signature in force over data that changes (one row per subject).
 * - `heldFormTouched`: a frozen or locked form the amendment touches: it stays as it is until the hold
 *   is lifted (`after`: the strongest hold over it, `{ kind, level }`).
 * - `siteNotInEffect`: the subject's site has no ethics approval of the amendment in effect today
 *   (`after`: its effective date, null when it has none; one row per subject).
 */
export type ImpactKind = (typeof impactKinds)[number];

export interface ImpactRow {
  subjectId: number;
  siteId: number;
  screeningNumber: string;
  visitKey: string | null;
  /** The form's next key; its live key when the form is retired there. */
  formKey: string | null;
  /**
   * The item's path in the form as queries write theirs after "visit.form.": `item`, or
   * `group[row].item` in a repeating group's row; the next key, the live one for a retired item.
   */
  itemKey: string | null;
  kind: ImpactKind;
  before: JsonValue | null;
  after: JsonValue | null;
}

/** An impact row before it is given its subject. */
export type PlacedImpact = Omit<ImpactRow, 'subjectId' | 'siteId' | 'screeningNumber'>;

export interface ImpactSummary {
  /** Subjects analyzed (of the study, not deleted). */
  subjects: number;
  /** Per kind: its rows and the subjects with at least one. */
  byKind: Record<ImpactKind, { rows: number; subjects: number }>;
}

export function emptyImpactSummary(): ImpactSummary {
  const byKind = {} as ImpactSummary['byKind'];
  for (const kind of IMPACT_KINDS) byKind[kind] = { rows: 0, subjects: 0 };
  return { subjects: 0, byKind };
}

/** Counts one subject's rows into the summary. */
export function countSubjectImpact(summary: ImpactSummary, rows: readonly ImpactRow[]): void {
  summary.subjects += 1;
  const kinds = new Set<ImpactKind>();
  for (const row of rows) {
    summary.byKind[row.kind].rows += 1;
    kinds.add(row.kind);
  }
  for (const kind of kinds) summary.byKind[kind].subjects += 1;
}
