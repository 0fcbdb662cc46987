import { describe, expect, it } from 'vitest';
import { resources } from './resources.ts';

/** Every key path of a resource object, e.g. "title" or "menu.dashboard". */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('translation resources', () => {
  it('have the same namespaces in ko and en', () => {
    expect(Object.keys(resources.en).sort()).toEqual(Object.keys(resources.ko).sort());
  });

  for (const namespace of Object.keys(resources.ko) as (keyof typeof resources.ko)[]) {
    it(`have the same keys in ko and en for "${namespace}"`, () => {
      const ko = keyPaths(resources.ko[namespace]).sort();
      const en = keyPaths(resources.en[namespace]).sort();
      expect(en).toEqual(ko);
    });

    it(`never hedge a Korean particle in "${namespace}" (은(는), 을(를), (으)로: reworded instead)`, () => {
      // A name or label in {{…}} cannot choose its particle in a translation file; a message words
      // itself so none follows the placeholder (issue 43 item 10: "이 대상자은(는)").
      const hedged = keyPaths(resources.ko[namespace]).filter((path) => {
        const value = path
          .split('.')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resources.ko[namespace]);
        return typeof value === 'string' && /\((은|는|이|가|을|를|와|과|으)\)/.test(value);
      });
      expect(hedged).toEqual([]);
    });

    it(`have no empty strings in "${namespace}"`, () => {
      for (const language of ['ko', 'en'] as const) {
        const empty = keyPaths(resources[language][namespace]).filter((path) => {
          const value = path
            .split('.')
            .reduce<unknown>(
              (node, key) => (node as Record<string, unknown>)[key],
              resources[language][namespace],
            );
          return typeof value !== 'string' || value.trim() === '';
        });
        expect(empty, `${language}/${namespace}`).toEqual([]);
      }
    });
  }
});

describe('keyPaths', () => {
  it('finds a key missing on one side', () => {
    expect(keyPaths({ a: 'x', b: { c: 'y' } })).toEqual(['a', 'b.c']);
    expect(keyPaths({ a: 'x' })).not.toEqual(keyPaths({ a: 'x', b: 'y' }));
  });
});
