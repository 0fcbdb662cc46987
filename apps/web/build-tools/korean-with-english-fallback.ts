import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `primary` with every key it lacks taken from `fallback`, at every depth; `primary`'s own values win. */
export function withFallback(primary: Json, fallback: Json): Json {
  if (!isObject(primary) || !isObject(fallback)) return primary;
  const merged: { [key: string]: Json } = { ...primary };
  for (const [key, value] of Object.entries(fallback)) {
    merged[key] = key in primary ? withFallback(primary[key] as Json, value) : value;
  }
  return merged;
}

/**
 * Korean is the default language and English its fallback: a key missing in `locales/ko/x.json`
 * shows `locales/en/x.json`'s text. This plugin builds each Korean namespace with the English text
 * of any key it lacks (the files themselves are complete, src/i18n/resources.test.ts), so a Korean
 * page needs no English namespace beside it (src/i18n/i18n.ts): the landing page's first load is
 * the Korean startup namespaces only.
 */
export function koreanWithEnglishFallback(): Plugin {
  return {
    name: 'cdms-korean-with-english-fallback',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      const match = /[\\/]locales[\\/]ko[\\/]([\w-]+)\.json$/.exec(file);
      if (!match) return null;
      const english = path.join(path.dirname(file), '..', 'en', `${match[1]}.json`);
      if (!fs.existsSync(english)) return null;
      this.addWatchFile(english);
      const merged = withFallback(
        JSON.parse(code) as Json,
        JSON.parse(fs.readFileSync(english, 'utf8')) as Json,
      );
      return { code: JSON.stringify(merged), map: null };
    },
  };
}
