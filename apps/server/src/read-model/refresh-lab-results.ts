import type { JsonValue, StudyDefinition, SubjectData } from '@cdms/study';
import { sql, type Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { Database } from '../db/schema.ts';
import {
  labRangeSubjectOf,
  labSexOf,
  loadLabRangesOfSites,
  type SiteLabRange,
} from '../lab-range-rules/applicable-lab-ranges.ts';
import { type LabResultInput, labResultRowsOf } from './lab-result-rows.ts';

/** A row to store, with its subject. */
export type LabResultOfSubject = LabResultInput & { subject_id: number };

/**
 * Replaces the stored lab results of these subjects with `rows` in one statement: rows that are gone
 * are deleted, new ones inserted, changed ones updated — an unchanged row is not written again. The
 * study, site, site code and screening number come from the subject's row. A subject in `subjectIds`
 * without rows (deleted, or no lab results any more) is left with none.
 */
export async function storeLabResults(
  trx: Transaction<Database>,
  subjectIds: readonly number[],
  rows: readonly LabResultOfSubject[],
): Promise<void> {
  if (subjectIds.length === 0) return;
  await sql`
    with incoming as (
      select r.*, s.study_id, s.site_id, sites.code as site_code, s.screening_number
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        subject_id integer, form_instance_id integer, test_key text, result_item text, visit_key text, test_order integer,
        specimen_date text, value double precision, sex text, age double precision, unit text,
        low double precision, high double precision, flag text, normal text, significance text)
      join subjects s on s.id = r.subject_id
      join sites on sites.id = s.site_id
    ),
    gone as (
      delete from lab_results lr
      where lr.subject_id in (select value::integer from jsonb_array_elements_text(${JSON.stringify(subjectIds)}::jsonb))
        and not exists (
          select from incoming i where i.form_instance_id = lr.form_instance_id and i.test_key = lr.test_key)
    )
    insert into lab_results (form_instance_id, test_key, result_item, subject_id, study_id, site_id, site_code,
      screening_number, visit_key, test_order, specimen_date, value, sex, age, unit, low, high, flag,
      normal, significance)
    select form_instance_id, test_key, result_item, subject_id, study_id, site_id, site_code, screening_number,
      visit_key, test_order, specimen_date, value, sex, age, unit, low, high, flag, normal, significance
    from incoming
    on conflict (form_instance_id, test_key) do update set
      result_item = excluded.result_item, site_code = excluded.site_code, screening_number = excluded.screening_number,
      visit_key = excluded.visit_key, test_order = excluded.test_order,
      specimen_date = excluded.specimen_date, value = excluded.value, sex = excluded.sex,
      age = excluded.age, unit = excluded.unit, low = excluded.low, high = excluded.high,
      flag = excluded.flag, normal = excluded.normal, significance = excluded.significance
    where (lab_results.result_item, lab_results.site_code, lab_results.screening_number, lab_results.visit_key,
        lab_results.test_order, lab_results.specimen_date, lab_results.value, lab_results.sex,
        lab_results.age, lab_results.unit, lab_results.low, lab_results.high, lab_results.flag,
        lab_results.normal, lab_results.significance)
      is distinct from (excluded.result_item, excluded.site_code, excluded.screening_number, excluded.visit_key,
        excluded.test_order, excluded.specimen_date, excluded.value, excluded.sex, excluded.age,
        excluded.unit, excluded.low, excluded.high, excluded.flag, excluded.normal,
        excluded.significance)`.execute(trx);
}

/**
 * The rebuild's part: recomputes the lab results of these subjects from the raw data — their lab
 * forms' values, the sex and age their facts hold (the demographics the form's range check reads)
 * and their sites' ranges — and stores them. The caller holds the subjects' row locks.
 */
export async function rebuildLabResults(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjects: ReadonlyArray<{ subjectId: number; gender: string | null; age: number | null }>,
): Promise<void> {
  const ids = subjects.map((subject) => subject.subjectId);
  const labForm = definition.roles?.labPanel?.form;
  if (ids.length === 0 || labForm === undefined) return;
  const forms = await trx
    .selectFrom('form_instances as fi')
    .innerJoin('subjects as s', 's.id', 'fi.subject_id')
    .leftJoin('item_values as iv', 'iv.form_instance_id', 'fi.id')
    .select([
      'fi.id',
      'fi.subject_id',
      'fi.visit_key',
      'fi.form_key',
      'fi.has_data',
      's.site_id',
      sql<Record<
        string,
        JsonValue
      > | null>`jsonb_object_agg(iv.item_key, iv.value) filter (where iv.item_key is not null)`.as(
        'item_values',
      ),
    ])
    .where('fi.subject_id', 'in', ids)
    .where('fi.form_key', '=', labForm)
    .where('s.deleted_at', 'is', null)
    .groupBy(['fi.id', 's.site_id'])
    .execute();
  const rangesOfSite = await loadLabRangesOfSites(trx, [...new Set(forms.map((form) => form.site_id))]);
  const rows: LabResultOfSubject[] = [];
  for (const subject of subjects) {
    const own = forms.filter((form) => form.subject_id === subject.subjectId);
    if (own.length === 0) continue;
    const data: SubjectData = {};
    for (const form of own) data[form.visit_key] = { [labForm]: form.item_values ?? {} };
    // As `labRangeSubjectOf` reads the demographics: a sex other than the role's codes fits no sex-limited range.
    const sex = labSexOf(definition, subject.gender);
    const computed = labResultRowsOf(
      definition,
      { sex, age: subject.age, data, instances: own },
      rangesOfSite.get(own[0]?.site_id ?? 0) ?? [],
    );
    for (const row of computed) rows.push({ ...row, subject_id: subject.subjectId });
  }
  await storeLabResults(trx, ids, rows);
}

/**
 * A save's part (`writeForm`): whether the save can have moved the subject's lab results — a lab form
 * or the demographics form (sex and age choose the range) saved with changes or first saved, or
 * derived values of either changed. Every other save (the busiest: vital signs, ear findings) leaves
 * them alone and pays nothing.
 */
export function labResultsMayMove(
  definition: StudyDefinition,
  saved: { visitKey: string; formKey: string; changed: boolean },
  derivedChangedForms: ReadonlyArray<{ visitKey: string; formKey: string }>,
): boolean {
  const demographics = definition.roles?.demographics;
  const moves = (form: { visitKey: string; formKey: string }) =>
    form.formKey === definition.roles?.labPanel?.form ||
    (demographics !== undefined &&
      form.visitKey === demographics.visit &&
      form.formKey === demographics.form);
  return (saved.changed && moves(saved)) || derivedChangedForms.some(moves);
}

/** The subject's lab results from the data a save holds, stored (the save's transaction and lock). */
export async function refreshSubjectLabResults(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subject: { id: number; siteId: number },
  data: SubjectData,
  instances: Iterable<{ id: number; visit_key: string; form_key: string; has_data: boolean }>,
  siteRanges: readonly SiteLabRange[],
): Promise<void> {
  const { sex, age } = labRangeSubjectOf(definition, subject.siteId, data);
  const rows = labResultRowsOf(definition, { sex, age, data, instances }, siteRanges);
  await storeLabResults(
    trx,
    [subject.id],
    rows.map((row) => ({ ...row, subject_id: subject.id })),
  );
}

/**
 * After a save: the lab page's rows (issue 43 item 13), flagged from the data and ranges the save
 * holds, only when a lab form or the demographics moved; other saves send nothing more.
 */
export const refreshLabResultsAfterChange: AfterChange = async (change) => {
  const changed = change.changedKeys.length > 0 || change.isNewForm;
  if (
    !labResultsMayMove(
      change.definition,
      { visitKey: change.visitKey, formKey: change.formKey, changed },
      change.derivedChangedForms,
    )
  )
    return;
  await refreshSubjectLabResults(
    change.trx,
    change.definition,
    { id: change.subject.id, siteId: change.subject.site_id },
    change.evaluation.data,
    change.stored.instances.values(),
    change.siteLabRanges,
  );
};
