/**
 * A JSON value kept in the browser's storage (localStorage or sessionStorage) under a key: the one way
 * the app reads and writes it. Storage may be refused (a private window) or full, and a value may have
 * been written by another version or by hand: each of these reads as nothing and writes nothing, and
 * the page goes on without the safety net.
 */
export function readStoredJson(storage: Storage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** Stores the value under the key; `undefined` removes the key. */
export function writeStoredJson(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === undefined) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused: what the page holds in memory still holds for this visit.
  }
}
