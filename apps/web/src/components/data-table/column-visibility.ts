import { useCallback, useState } from 'react';
import { readStoredJson, writeStoredJson } from '../../lib/stored-json.ts';

/**
 * Which columns a person hid, remembered per table in localStorage (`cdms.table.<id>.hidden`), so a
 * list looks the same on the next visit. Only hidden column ids are kept: a column added later shows.
 */
export type HiddenColumns = readonly string[];

export function hiddenColumnsKey(tableId: string): string {
  return `cdms.table.${tableId}.hidden`;
}

/** The stored choice; anything unreadable (private mode, an edited value) means nothing hidden. */
export function readHiddenColumns(tableId: string): HiddenColumns {
  const parsed = readStoredJson(window.localStorage, hiddenColumnsKey(tableId));
  return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
}

function writeHiddenColumns(tableId: string, hidden: HiddenColumns): void {
  writeStoredJson(window.localStorage, hiddenColumnsKey(tableId), hidden.length === 0 ? undefined : hidden);
}

/** The hidden columns of one table and a setter that also stores them. */
export function useHiddenColumns(tableId: string): [HiddenColumns, (hidden: HiddenColumns) => void] {
  const [hidden, setHidden] = useState<HiddenColumns>(() => readHiddenColumns(tableId));
  const update = useCallback(
    (next: HiddenColumns) => {
      setHidden(next);
      writeHiddenColumns(tableId, next);
    },
    [tableId],
  );
  return [hidden, update];
}
