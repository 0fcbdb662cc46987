import { describe, expect, it } from 'vitest';
import { DRAFT_STORAGE_KEY, draftKey, readDraft, removeDraft, writeDraft } from './draft-store.ts';

/** A Storage in memory (the tests do not share the browser's session storage). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('subject-detail-store drafts', () => {
  const draft = {
    baseVersion: 2,
    baseValues: { birthDate: '1989-01-01' },
    values: { birthDate: '1990-01-01' },
    updatedAt: '2026-03-02T05:07:00Z',
  };

  it('keeps one draft per subject, visit and form under the spec key', () => {
    const storage = memoryStorage();
    const a = draftKey(1, 7, 'v1', 'demographicInfo');
    const b = draftKey(1, 7, 'v2', 'vitalSigns');
    writeDraft(a, draft, storage);
    writeDraft(b, { ...draft, baseVersion: 0 }, storage);
    expect(readDraft(a, storage)).toEqual(draft);
    expect(readDraft(b, storage)?.baseVersion).toBe(0);
    expect(readDraft(draftKey(1, 8, 'v1', 'demographicInfo'), storage)).toBeUndefined();
    expect(JSON.parse(storage.getItem(DRAFT_STORAGE_KEY) ?? '{}').drafts[a]).toEqual(draft);

    removeDraft(a, storage);
    expect(readDraft(a, storage)).toBeUndefined();
    removeDraft(b, storage);
    // Nothing left: the key itself goes.
    expect(storage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });

  it('ignores unreadable content instead of failing the page', () => {
    const storage = memoryStorage();
    const key = draftKey(1, 7, 'v1', 'demographicInfo');
    storage.setItem(DRAFT_STORAGE_KEY, '{not json');
    expect(readDraft(key, storage)).toBeUndefined();
    storage.setItem(
      DRAFT_STORAGE_KEY,
      JSON.stringify({ drafts: { [key]: { baseVersion: 'x', values: {} } } }),
    );
    expect(readDraft(key, storage)).toBeUndefined();
    writeDraft(key, draft, storage);
    expect(readDraft(key, storage)).toEqual(draft);
  });
});
