import type { Hold, HoldPlace } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { ActiveQuery, StoredSubjectData } from '../after-change/form-change.ts';
import {
  formInstancesWithValuesQuery,
  type InstanceWithValues,
  storedSubjectDataOf,
} from '../data-entry/load-subject-for-save.ts';
import type { Database } from '../db/schema.ts';

// One batch of an amendment's impact analysis read from the database: the next subjects of the study
// in id order after the last one read (keyset), then everything the analysis compares for them in ONE
// statement, so a batch is a consistent picture and memory holds one batch, never the study.

/** What the analysis reads of one subject: its stored data and what follows from it. */
export interface StoredSubject {
  id: number;
  siteId: number;
  screeningNumber: string;
  stored: StoredSubjectData;
  /** Open and answered queries of any kind, and system queries closed over a failing check, in id order. */
  queries: ActiveQuery[];
  /** The items a monitor verified, per form (live keys). */
  verifiedItems: Array<{ visitKey: string; formKey: string; itemKey: string }>;
  /** Whether a signature is in force (not invalidated). */
  signed: boolean;
}

/** A hold in force, with where it was placed (`holdCovers` judges what it covers). */
export type PlacedHold = Hold & HoldPlace;

export interface SubjectBatch {
  subjects: StoredSubject[];
  /** The holds in force over the study, the batch's sites or its subjects and their forms. */
  holds: PlacedHold[];
}

/** The study's live (not deleted) subjects after `afterId`, `size` of them, in id order. */
export function readSubjectIds(
  db: Kysely<Database>,
  studyId: number,
  afterId: number,
  size: number,
): Promise<Array<{ id: number; site_id: number; screening_number: string }>> {
  return db
    .selectFrom('subjects')
    .select(['id', 'site_id', 'screening_number'])
    .where('study_id', '=', studyId)
    .where('deleted_at', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(size)
    .execute();
}

/** The batch's stored data, queries, verified marks, signatures and holds, in one statement. */
export async function readSubjectBatch(
  db: Kysely<Database>,
  studyId: number,
  subjects: ReadonlyArray<{ id: number; site_id: number; screening_number: string }>,
): Promise<SubjectBatch> {
  if (subjects.length === 0) return { subjects: [], holds: [] };
  const ids = subjects.map((subject) => subject.id);
  const [row] = await db
    .selectNoFrom((eb) => [
      jsonArrayFrom(formInstancesWithValuesQuery(db).where('subject_id', 'in', ids).orderBy('id')).as(
        'instances',
      ),
      jsonArrayFrom(
        eb
          .selectFrom('queries')
          .select(['id', 'subject_id', 'kind', 'status', 'visit_key', 'form_key', 'check_id', 'item_path'])
          .where('subject_id', 'in', ids)
          .where((inner) =>
            inner.or([inner('status', 'in', ['open', 'answered']), inner('closed_over_check', '=', true)]),
          )
          .orderBy('id'),
      ).as('queries'),
      jsonArrayFrom(
        eb
          .selectFrom('sdv_marks')
          .innerJoin('form_instances', 'form_instances.id', 'sdv_marks.form_instance_id')
          .select([
            'sdv_marks.subject_id',
            'form_instances.visit_key',
            'form_instances.form_key',
            'sdv_marks.item_key',
          ])
          .where('sdv_marks.subject_id', 'in', ids)
          .where('sdv_marks.state', '=', 'verified')
          .orderBy('form_instances.id')
          .orderBy('sdv_marks.item_key'),
      ).as('verified_marks'),
      jsonArrayFrom(
        eb
          .selectFrom('signatures')
          .select('subject_id')
          .where('subject_id', 'in', ids)
          .where('invalidated_at', 'is', null),
      ).as('signed'),
      jsonArrayFrom(
        eb
          .selectFrom('holds')
          .select(['kind', 'level', 'site_id', 'subject_id', 'visit_key', 'form_key'])
          .where('study_id', '=', studyId)
          .where('lifted_at', 'is', null)
          .where((inner) =>
            inner.or([inner('level', 'in', ['study', 'site']), inner('subject_id', 'in', ids)]),
          )
          .orderBy('id'),
      ).as('holds'),
    ])
    .execute();
  if (!row) throw new Error('a statement without FROM gives one row');
  // The instances as JSON gives them (kysely's JSON typing widens the value objects).
  const instances = row.instances as unknown as InstanceWithValues[];
  const instancesOf = groupBySubject(instances);
  const queriesOf = groupBySubject(row.queries);
  const marksOf = groupBySubject(row.verified_marks);
  const signed = new Set(row.signed.map((signature) => signature.subject_id));
  return {
    subjects: subjects.map((subject) => ({
      id: subject.id,
      siteId: subject.site_id,
      screeningNumber: subject.screening_number,
      stored: storedSubjectDataOf(instancesOf.get(subject.id) ?? []),
      queries: (queriesOf.get(subject.id) ?? []).map(({ subject_id: _subject, ...query }) => query),
      verifiedItems: (marksOf.get(subject.id) ?? []).map((mark) => ({
        visitKey: mark.visit_key,
        formKey: mark.form_key,
        itemKey: mark.item_key,
      })),
      signed: signed.has(subject.id),
    })),
    holds: row.holds.map((hold) => ({
      kind: hold.kind,
      level: hold.level,
      siteId: hold.site_id,
      subjectId: hold.subject_id,
      visitKey: hold.visit_key,
      formKey: hold.form_key,
    })),
  };
}

function groupBySubject<T extends { subject_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  for (const row of rows) {
    const list = grouped.get(row.subject_id) ?? [];
    list.push(row);
    grouped.set(row.subject_id, list);
  }
  return grouped;
}
