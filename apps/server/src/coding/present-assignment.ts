import type { CodingAssignment, CodingPath } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The columns an assignment is shown with (its subject, site, coder, dictionary version). */
export function assignmentQuery(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('coding_assignments as a')
    .innerJoin('subjects as s', 's.id', 'a.subject_id')
    .innerJoin('sites as si', 'si.id', 'a.site_id')
    .leftJoin('users as u', 'u.id', 'a.coded_by')
    .leftJoin('coding_dictionaries as d', 'd.id', 'a.dictionary_id')
    .where('s.deleted_at', 'is', null)
    .select([
      'a.id',
      'a.kind',
      'a.status',
      'a.verbatim',
      'a.subject_id',
      's.screening_number',
      'a.site_id',
      'si.code as site_code',
      'a.visit_key',
      'a.form_key',
      'a.group_key',
      'a.row_index',
      'a.item_key',
      'a.path',
      'd.version as dictionary_version',
      'u.name as coded_by_name',
      'a.coded_at',
      'a.query_id',
      'a.version',
    ]);
}

type AssignmentRow = Awaited<ReturnType<ReturnType<typeof assignmentQuery>['execute']>>[number];

export function presentAssignment(row: AssignmentRow): CodingAssignment {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    verbatim: row.verbatim,
    subjectPk: row.subject_id,
    screeningNumber: row.screening_number,
    siteId: row.site_id,
    siteCode: row.site_code,
    visitKey: row.visit_key,
    formKey: row.form_key,
    itemPath: `${row.group_key}[${row.row_index}].${row.item_key}`,
    path: (row.path as CodingPath | null) ?? null,
    dictionaryVersion: row.dictionary_version ?? null,
    codedBy: row.coded_by_name ?? null,
    codedAt: row.coded_at ? new Date(row.coded_at).toISOString() : null,
    queryId: row.query_id,
    version: row.version,
  };
}

/** One assignment of the study as shown, or undefined. */
export async function readAssignment(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  assignmentId: number,
): Promise<CodingAssignment | undefined> {
  const row = await assignmentQuery(db)
    .where('a.study_id', '=', studyId)
    .where('a.id', '=', assignmentId)
    .executeTakeFirst();
  return row ? presentAssignment(row) : undefined;
}
