import type { DataExportValuesAsOf } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database, SubjectStatus } from '../db/schema.ts';

/** Which data a form-table export holds; deleted subjects never. */
export interface FormTablesScope {
  studyId: number;
  /** Only these sites' subjects; every site when absent. */
  siteIds?: number[];
  /** Only subjects in these statuses; every status when absent. */
  statuses?: SubjectStatus[];
  /** Only these forms; every form when absent. */
  formKeys?: string[];
}

export interface FormTablesOptions {
  scope: FormTablesScope;
  /** Adds `<item>_label` after each coded item, in this language; codes only when null. */
  labels: 'ko' | 'en' | null;
  /**
   * Withhold the values of the items the study definition flags as personal data: their columns
   * stay, blank, and the codebook says they were masked. Not masked when absent.
   */
  maskPersonalData?: boolean;
  /** The version the values are given in (`current` when absent): see tables-context.ts. */
  valuesAsOf?: DataExportValuesAsOf;
}

/** The form instances with data of the scope's subjects (aliases fi and s), one form or all. */
export function instancesInScope(db: Kysely<Database>, scope: FormTablesScope) {
  let query = db
    .selectFrom('form_instances as fi')
    .innerJoin('subjects as s', 's.id', 'fi.subject_id')
    .where('s.study_id', '=', scope.studyId)
    .where('s.deleted_at', 'is', null)
    .where('fi.has_data', '=', true);
  // An empty list selects nothing, as it says (not "everything").
  if (scope.siteIds !== undefined)
    query =
      scope.siteIds.length === 0
        ? query.where((eb) => eb.val(false))
        : query.where('s.site_id', 'in', scope.siteIds);
  if (scope.statuses !== undefined)
    query =
      scope.statuses.length === 0
        ? query.where((eb) => eb.val(false))
        : query.where('s.status', 'in', scope.statuses);
  return query;
}
