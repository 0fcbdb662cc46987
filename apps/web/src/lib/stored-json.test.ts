import { describe, expect, it } from 'vitest';
import { readStoredJson, writeStoredJson } from './stored-json.ts';

describe('stored JSON', () => {
  it('writes, reads back and removes a value', () => {
    writeStoredJson(window.localStorage, 'test.key', { a: [1, 2] });
    expect(readStoredJson(window.localStorage, 'test.key')).toEqual({ a: [1, 2] });
    writeStoredJson(window.localStorage, 'test.key', undefined);
    expect(window.localStorage.getItem('test.key')).toBeNull();
    expect(readStoredJson(window.localStorage, 'test.key')).toBeNull();
  });

  it('reads an unreadable value as nothing, and survives a storage that refuses', () => {
    window.localStorage.setItem('test.key', '{not json');
    expect(readStoredJson(window.localStorage, 'test.key')).toBeNull();
    window.localStorage.removeItem('test.key');
    const refusing = {
      getItem: () => {
        throw new Error('refused');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('refused');
      },
    } as unknown as Storage;
    expect(readStoredJson(refusing, 'k')).toBeNull();
    expect(() => writeStoredJson(refusing, 'k', 1)).not.toThrow();
    expect(() => writeStoredJson(refusing, 'k', undefined)).not.toThrow();
  });
});
