import type { Hold } from '@cdms/contract';
import type { FormValues, SubjectData } from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { ActiveQuery, StoredSubjectData } from '../after-change/form-change.ts';
import { type CompiledRow, compiledOnce } from '../db/compiled-once.ts';
import type { Database, FormInstanceRow } from '../db/schema.ts';
import { type SiteLabRange, siteLabRangesQuery } from '../lab-range-rules/applicable-lab-ranges.ts';
import { holdsOverQuery } from '../locks/holds-in-force.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A form instance row with its entered and derived values, each as one JSON object (none: null);
 * `saved_at` is text when the row came inside JSON (a save's read), a Date when read as a column.
 */
export type InstanceWithValues = Omit<FormInstanceRow, 'saved_at'> & {
  saved_at: Date | string;
  form_values: [entered: FormValues | null, derived: FormValues | null] | null;
};

/**
 * The subject's form instances, each carrying its entered and derived values as two JSON objects:
 * the form screen reads them on every read, a save under the subject's lock. Objects, not a list of
 * [item, value] pairs: JSON.parse builds them at once, where the server built ~600 pairs and added
 * their values to the form objects one key at a time (~5 % of a save's server time, issue 12).
 */
export function subjectDataQuery(executor: Executor, subjectId: number) {
  return formInstancesWithValuesQuery(executor).where('subject_id', '=', subjectId);
}

/**
 * `subjectDataQuery` before it names its subject: a read of many subjects' forms at once (an
 * amendment's impact analysis, a batch of subjects per statement) adds its own `where`.
 */
export function formInstancesWithValuesQuery(executor: Executor) {
  return executor
    .selectFrom('form_instances')
    .selectAll('form_instances')
    .select(
      sql<InstanceWithValues['form_values']>`(select json_build_array(
          json_object_agg(iv.item_key, iv.value) filter (where not iv.derived),
          json_object_agg(iv.item_key, iv.value) filter (where iv.derived))
        from item_values iv where iv.form_instance_id = form_instances.id)`.as('form_values'),
    );
}

/** The key of a form in `StoredSubjectData.instances`: "visit.form". */
export const formKeyOf = (visitKey: string, formKey: string) => `${visitKey}.${formKey}`;

function putFormValues(data: SubjectData, instance: FormInstanceRow, values: FormValues) {
  data[instance.visit_key] ??= {};
  (data[instance.visit_key] as Record<string, FormValues>)[instance.form_key] = values;
}

/** `subjectDataQuery`'s rows as the subject's entered and derived values and its instances by form. */
export function storedSubjectDataOf(rows: readonly InstanceWithValues[]): StoredSubjectData {
  const entered: SubjectData = {};
  const derived: SubjectData = {};
  const instances = new Map<string, FormInstanceRow>();
  for (const row of rows) {
    // Every column but the values, one by one: an object rest (`{ form_values, ...instance }`)
    // takes V8's slow path.
    const instance: FormInstanceRow = {
      id: row.id,
      subject_id: row.subject_id,
      visit_key: row.visit_key,
      form_key: row.form_key,
      version: row.version,
      has_data: row.has_data,
      status: row.status,
      definition_version: row.definition_version,
      // JSON gives timestamps as text: `new Date` reads them to the millisecond, as the driver does.
      saved_at: new Date(row.saved_at),
      first_saved_at: new Date(row.first_saved_at),
      saved_by: row.saved_by,
    };
    instances.set(formKeyOf(instance.visit_key, instance.form_key), instance);
    const [enteredValues, derivedValues] = row.form_values ?? [null, null];
    if (enteredValues) putFormValues(entered, instance, enteredValues);
    if (derivedValues) putFormValues(derived, instance, derivedValues);
  }
  return { entered, derived, instances };
}

/** What a save reads about its subject before it changes anything. */
export interface SubjectForSave {
  stored: StoredSubjectData;
  /** The holds in force over the subject and the saved form. */
  holds: Hold[];
  /** Open and answered queries and those closed over a failing check, in id order. */
  activeQueries: ActiveQuery[];
  /** The saved form's items whose values a monitor has verified against the source. */
  verifiedItemKeys: Set<string>;
  /** Whether the subject has a signature in force (not invalidated). */
  signed: boolean;
  /** The site's lab ranges in force, for the lab forms' range checks (`addLabRangeChecks`). */
  siteLabRanges: SiteLabRange[];
}

/**
 * `loadSubjectForSave`'s statement, built once (`compiledOnce`): every save runs it. The site is the
 * subject row's own (a subquery), so a save can send this statement right behind the one that
 * reads and locks the subject, before it has the row (`saveForm`).
 */
const subjectForSaveStatement = compiledOnce(
  (db, params: { subjectId: number; studyId: number; visitKey: string; formKey: string }) => {
    const siteOfSubject = db
      .selectFrom('subjects')
      .select('site_id')
      .where('id', '=', params.subjectId)
      .$asScalar();
    return db.selectNoFrom((eb) => [
      jsonArrayFrom(subjectDataQuery(db, params.subjectId)).as('instances'),
      jsonArrayFrom(
        holdsOverQuery(db, {
          studyId: params.studyId,
          siteId: siteOfSubject,
          subjectId: params.subjectId,
          visitKey: params.visitKey,
          formKey: params.formKey,
        }),
      ).as('holds'),
      jsonArrayFrom(
        eb
          .selectFrom('queries')
          .select(['id', 'kind', 'status', 'visit_key', 'form_key', 'check_id', 'item_path'])
          .where('subject_id', '=', params.subjectId)
          .where((inner) =>
            inner.or([inner('status', 'in', ['open', 'answered']), inner('closed_over_check', '=', true)]),
          )
          .orderBy('id'),
      ).as('active_queries'),
      jsonArrayFrom(
        eb
          .selectFrom('sdv_marks')
          .innerJoin('form_instances', 'form_instances.id', 'sdv_marks.form_instance_id')
          .select('sdv_marks.item_key')
          .where('form_instances.subject_id', '=', params.subjectId)
          .where('form_instances.visit_key', '=', params.visitKey)
          .where('form_instances.form_key', '=', params.formKey)
          .where('sdv_marks.state', '=', 'verified'),
      ).as('verified_marks'),
      eb
        .exists(
          eb
            .selectFrom('signatures')
            .select('id')
            .where('subject_id', '=', params.subjectId)
            .where('invalidated_at', 'is', null),
        )
        .as('signed'),
      jsonArrayFrom(siteLabRangesQuery(db, siteOfSubject)).as('lab_ranges'),
    ]);
  },
);

/**
 * Everything a save needs to know about its subject, read in ONE statement after the caller took
 * the subject's row lock (every writer of the subject's forms, values, queries, SDV marks and
 * signatures takes that lock first, so none of these can change before the save commits): the form
 * instances with their values, the holds in force, the active queries, the form's verified items,
 * whether a signature is in force, and the site's lab ranges (read as of this statement, as their
 * own statement did). On the 2-core machine of issue 12 each round trip costs both the server and
 * PostgreSQL: these reads were four statements (the holds, the forms, the queries and, for a
 * subject with lab results, the ranges), and the verification reset and the signature's
 * invalidation two more on every save even when there was nothing to reset. `json_agg` gives
 * timestamps as text: `new Date` reads them to the millisecond, as the driver reads a timestamp
 * column.
 */
export async function loadSubjectForSave(
  trx: Transaction<Database>,
  subject: { id: number; study_id: number },
  form: { visitKey: string; formKey: string },
): Promise<SubjectForSave> {
  return subjectForSaveOf(await subjectForSaveStatement(trx, subjectForSaveParams(subject, form)));
}

/** `loadSubjectForSave`'s statement with this save's values, unsent: `saveForm` sends it early. */
export function subjectForSaveQuery(
  trx: Transaction<Database>,
  subject: { id: number; study_id: number },
  form: { visitKey: string; formKey: string },
) {
  return subjectForSaveStatement.bind(trx, subjectForSaveParams(subject, form));
}

function subjectForSaveParams(
  subject: { id: number; study_id: number },
  form: { visitKey: string; formKey: string },
) {
  return { subjectId: subject.id, studyId: subject.study_id, visitKey: form.visitKey, formKey: form.formKey };
}

type SubjectForSaveRow = CompiledRow<ReturnType<typeof subjectForSaveQuery>>;

/** The answer of `subjectForSaveQuery` as a save uses it. */
export function subjectForSaveOf(rows: readonly SubjectForSaveRow[]): SubjectForSave {
  const [row] = rows;
  if (!row) throw new Error('a statement without FROM gives one row');
  // The instances as JSON gives them (kysely's JSON typing widens the value objects).
  const instances = row.instances as unknown as InstanceWithValues[];
  return {
    stored: storedSubjectDataOf(instances),
    holds: row.holds.map((hold) => ({ kind: hold.kind, level: hold.level })),
    activeQueries: row.active_queries,
    verifiedItemKeys: new Set(row.verified_marks.map((mark) => mark.item_key)),
    signed: row.signed === true,
    siteLabRanges: row.lab_ranges,
  };
}
