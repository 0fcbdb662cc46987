import type { AmendmentChangeSet, StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadLabRangesOfSites, type SiteLabRange } from '../lab-range-rules/applicable-lab-ranges.ts';
import { countSubjectImpact, emptyImpactSummary, type ImpactRow, type ImpactSummary } from './impact-rows.ts';
import { readSubjectBatch, readSubjectIds } from './read-subject-batch.ts';
import { subjectImpactRows } from './subject-impact.ts';

export type { ImpactKind, ImpactRow, ImpactSummary } from './impact-rows.ts';

// An amendment's impact over the data stored today (issue 49 item 3): what publishing `next` over
// `live` would do, subject by subject — values renamed, converted, re-coded or retired, form statuses,
// system queries, derived values, SDV marks and signatures it would undo, held forms it cannot touch,
// subjects whose site's approval is not in effect. A read: nothing is written. Subjects are read in
// id order in batches (keyset), each batch in one statement, so memory holds one batch whatever the
// study's size; the caller stores each batch's rows as they come.

export interface AmendmentImpactInput {
  studyId: number;
  /** The version the data is stored under today. */
  live: StudyDefinition;
  /** The amendment's version. */
  next: StudyDefinition;
  /** `amendmentChangeSet(live, next, declarations)`. */
  changeSet: AmendmentChangeSet;
  /** Per site id, the date (YYYY-MM-DD, Korea time) its ethics approval of the amendment takes effect; a site not in the map has none yet. */
  siteEffectiveDates: ReadonlyMap<number, string>;
  /** YYYY-MM-DD (`todayInKorea()` in production): the engine's today, and the day approvals are judged on. */
  today: string;
  /** Subjects per batch. */
  batchSize?: number;
}

export const DEFAULT_IMPACT_BATCH_SIZE = 200;

export async function analyzeAmendmentImpact(
  db: Kysely<Database>,
  input: AmendmentImpactInput,
  /** Called once per batch with that batch's rows (the caller stores them). */
  onRows: (rows: ImpactRow[]) => Promise<void>,
): Promise<ImpactSummary> {
  const batchSize = input.batchSize ?? DEFAULT_IMPACT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`batchSize must be a positive integer, not ${batchSize}`);
  const context = { db, ...input };
  const summary = emptyImpactSummary();
  // The sites' lab ranges, read once per site: a study has a handful of sites, not one per subject.
  const rangesOfSite = new Map<number, SiteLabRange[]>();
  const readsLabRanges = input.next.roles?.labPanel !== undefined;
  let afterId = 0;
  for (;;) {
    const ids = await readSubjectIds(db, input.studyId, afterId, batchSize);
    const last = ids.at(-1);
    if (!last) break;
    const batch = await readSubjectBatch(db, input.studyId, ids);
    const newSites = [...new Set(ids.map((subject) => subject.site_id))].filter(
      (site) => !rangesOfSite.has(site),
    );
    if (readsLabRanges && newSites.length > 0) {
      const ranges = await loadLabRangesOfSites(db, newSites);
      for (const site of newSites) rangesOfSite.set(site, ranges.get(site) ?? []);
    }
    const rows: ImpactRow[] = [];
    for (const subject of batch.subjects) {
      const subjectRows = await subjectImpactRows(
        context,
        subject,
        batch.holds,
        rangesOfSite.get(subject.siteId) ?? [],
      );
      countSubjectImpact(summary, subjectRows);
      rows.push(...subjectRows);
    }
    await onRows(rows);
    if (ids.length < batchSize) break;
    afterId = last.id;
  }
  return summary;
}
