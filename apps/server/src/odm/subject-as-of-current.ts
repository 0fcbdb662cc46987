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
 * out, as a key the current version lacks always was —, each change record under the value's current
 * path, its before and after as they were entered (the history is not rewritten), and each query on
 * its value's current place.
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
  const queries = subject.queries.map((thread) => {
    const place = movedQueryPlace(thread.query, move);
    return place ? { ...thread, query: { ...thread.query, ...place } } : thread;
  });
  return { ...subject, values, audit, queries };
}

/**
 * A query's form and item path (`visit.form.item`, `visit.form.group[row].column`, or the form alone)
 * in the current version's terms; null when the amendments retired what it is on (it stays where it
 * was, and the file puts it on its subject).
 */
function movedQueryPlace(
  query: { visit_key: string; form_key: string; item_path: string },
  move: MoveValue,
): { form_key: string; item_path: string } | null {
  const { visit_key: visitKey, form_key: formKey, item_path: itemPath } = query;
  const prefix = `${visitKey}.${formKey}.`;
  if (!itemPath.startsWith(prefix)) {
    // On the whole form: only the form's key moves (a key no item has rides along unchanged).
    const moved = move(visitKey, formKey, '', null);
    return moved ? { form_key: moved.formKey, item_path: itemPath } : null;
  }
  const rest = itemPath.slice(prefix.length);
  const cell = /^([^[.]+)\[(\d+)\]\.(.+)$/.exec(rest);
  if (!cell) {
    const moved = move(visitKey, formKey, rest, null);
    return moved
      ? { form_key: moved.formKey, item_path: `${visitKey}.${moved.formKey}.${moved.itemKey}` }
      : null;
  }
  const [, group = '', row = '0', column = ''] = cell;
  const moved = move(visitKey, formKey, group, [{ [column]: null }]);
  const movedColumn = Array.isArray(moved?.value) ? Object.keys(moved.value[0] ?? {})[0] : undefined;
  if (!moved || movedColumn === undefined) return null;
  return {
    form_key: moved.formKey,
    item_path: `${visitKey}.${moved.formKey}.${moved.itemKey}[${row}].${movedColumn}`,
  };
}
