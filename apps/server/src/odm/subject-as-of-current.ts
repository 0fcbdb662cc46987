import type { FormValues, JsonValue } from '@cdms/study';
import { type AmendmentChain, amendmentsFrom, moveFormThrough } from '../studies/amendment-chain.ts';
import type { ExportSubject } from './load-export-batch.ts';

/**
 * Where one stored value of a form goes in the current version, and as what: the form's and item's
 * keys after the amendments and the value moved with them (renamed, re-coded, converted), or null when
 * an amendment retired it. Each value is moved alone, by the migration's own move.
 */
export type MoveValue = (
  visitKey: string,
  formKey: string,
  itemKey: string,
  value: unknown,
) => { formKey: string; itemKey: string; value: unknown } | null;

/** How a subject on `version` moves to the current one; null when it is on the current version. */
export function valueMoverFrom(chain: AmendmentChain, version: string | null): MoveValue | null {
  const steps = amendmentsFrom(chain, version);
  if (steps.length === 0) return null;
  return (visitKey, formKey, itemKey, value) => {
    const moved = moveFormThrough(steps, visitKey, formKey, { [itemKey]: value as JsonValue } as FormValues);
    const [entry] = Object.entries(moved.values);
    if (moved.formKey === null || !entry) return null;
    return { formKey: moved.formKey, itemKey: entry[0], value: entry[1] };
  };
}

/**
 * An ODM export's subject still on an earlier version, given in the current version's terms (the
 * metadata's): each value moved as its migration would move it — one the amendments retired is left
 * out, as a key the current version lacks always was —, and each change record under the value's
 * current path, its before and after as they were entered (the history is not rewritten).
 */
export function subjectAsOfCurrent(subject: ExportSubject, move: MoveValue): ExportSubject {
  const values: ExportSubject['values'] = [];
  for (const row of subject.values) {
    const moved = move(row.visitKey, row.formKey, row.itemKey, row.value);
    if (moved) values.push({ ...row, formKey: moved.formKey, itemKey: moved.itemKey, value: moved.value });
  }
  const audit: ExportSubject['audit'] = [];
  for (const row of subject.audit) {
    const [visitKey = '', formKey = '', ...rest] = row.path.split('.');
    const itemKey = rest.join('.');
    // A repeating group's record holds its rows: an array tells the move it is the group.
    const probe = [row.after, row.before].find(Array.isArray) ?? null;
    const moved = move(visitKey, formKey, itemKey, probe);
    audit.push(moved ? { ...row, path: `${visitKey}.${moved.formKey}.${moved.itemKey}` } : row);
  }
  return { ...subject, values, audit };
}
