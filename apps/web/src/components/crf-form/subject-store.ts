import type { FormValues, JsonValue, SubjectData } from '@cdms/study';

// The subject's values live here, outside React state: each input subscribes to its own value
// (useSyncExternalStore), so a keystroke re-renders that input only, not the whole form. Updates are
// immutable (a new path from the root to the changed value), so an untouched value keeps its identity and
// its subscribers see no change.

export type Listener = () => void;

/** Where a value sits in one form: a top-level item, or an item of a repeating group's row. */
export interface ItemAddress {
  itemKey: string;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
}

export interface SubjectStore {
  getData: () => SubjectData;
  subscribe: (listener: Listener) => () => void;
  /** Replaces every value (fill with sample data, clear, load from the server). */
  replace: (data: SubjectData) => void;
  getFormValues: (visitKey: string, formKey: string) => FormValues | undefined;
  getValue: (visitKey: string, formKey: string, address: ItemAddress) => JsonValue;
  setValue: (visitKey: string, formKey: string, address: ItemAddress, value: JsonValue) => void;
  getRows: (visitKey: string, formKey: string, groupKey: string) => FormValues[];
  addRow: (visitKey: string, formKey: string, groupKey: string) => void;
  removeRow: (visitKey: string, formKey: string, groupKey: string, rowIndex: number) => void;
}

const NO_ROWS: FormValues[] = [];

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function rowsOf(values: FormValues | undefined, groupKey: string): FormValues[] {
  const rows = values?.[groupKey];
  return Array.isArray(rows) ? (rows as FormValues[]) : NO_ROWS;
}

export function createSubjectStore(initial: SubjectData = {}): SubjectStore {
  let data = initial;
  const listeners = new Set<Listener>();

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const getFormValues = (visitKey: string, formKey: string) => data[visitKey]?.[formKey];

  /** Writes a form's new values along a fresh path, leaving every other visit and form as it was. */
  const setFormValues = (visitKey: string, formKey: string, values: FormValues) => {
    data = { ...data, [visitKey]: { ...data[visitKey], [formKey]: values } };
    notify();
  };

  return {
    getData: () => data,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replace: (next) => {
      data = next;
      notify();
    },
    getFormValues,
    getValue: (visitKey, formKey, { itemKey, groupKey, rowIndex }) => {
      const values = getFormValues(visitKey, formKey);
      if (groupKey === undefined || rowIndex === undefined) return values?.[itemKey] ?? null;
      const row = rowsOf(values, groupKey)[rowIndex];
      return isRecord(row) ? (row[itemKey] ?? null) : null;
    },
    setValue: (visitKey, formKey, { itemKey, groupKey, rowIndex }, value) => {
      const values = getFormValues(visitKey, formKey) ?? {};
      if (groupKey === undefined || rowIndex === undefined) {
        if (values[itemKey] === value) return;
        setFormValues(visitKey, formKey, { ...values, [itemKey]: value });
        return;
      }
      const rows = rowsOf(values, groupKey);
      const row = rows[rowIndex];
      if (!isRecord(row) || row[itemKey] === value) return;
      const nextRows = rows.map((r, index) => (index === rowIndex ? { ...row, [itemKey]: value } : r));
      setFormValues(visitKey, formKey, { ...values, [groupKey]: nextRows });
    },
    getRows: (visitKey, formKey, groupKey) => rowsOf(getFormValues(visitKey, formKey), groupKey),
    addRow: (visitKey, formKey, groupKey) => {
      const values = getFormValues(visitKey, formKey) ?? {};
      setFormValues(visitKey, formKey, { ...values, [groupKey]: [...rowsOf(values, groupKey), {}] });
    },
    removeRow: (visitKey, formKey, groupKey, rowIndex) => {
      const values = getFormValues(visitKey, formKey) ?? {};
      const rows = rowsOf(values, groupKey).filter((_, index) => index !== rowIndex);
      setFormValues(visitKey, formKey, { ...values, [groupKey]: rows });
    },
  };
}

/** Whether a row holds anything worth a confirmation before it is removed. */
export function rowHasData(row: FormValues | undefined): boolean {
  if (!row) return false;
  return Object.values(row).some((value) => {
    if (value === null || value === false || value === '') return false;
    if (Array.isArray(value)) return value.length > 0;
    return true;
  });
}
