import fs from 'node:fs';
import path from 'node:path';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { describe, expect, it } from 'vitest';

// Issue 45 item 3: what the code knows about a study comes from its definition (its roles), so the
// server and web name no visit, form, item or code list of TMP-2026. This scans their sources (not tests,
// seeds, demo data or migrations) for TMP-2026's keys written as quoted string literals, and the
// contract's and the study engine's too: a key moved there would still be the apps' knowledge.
// REMAINING was the ratchet of the keys still named while they went; it is empty now and stays so.

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['apps/server/src', 'apps/web/src', 'packages/contract/src', 'packages/study/src/engine'];

/**
 * Keys of TMP-2026 that are also the application's own words, so finding them in code proves nothing:
 * common words the code uses for its own things, item types and the tracing's outlines, and field
 * names of the application's subject record, list columns and report rows that TMP-2026's items share.
 */
const APPLICATION_WORDS = new Set([
  // common words: all (sites, filters), sites, names, notes, row groups, units, sizes, modal sides…
  ...['all', 'site', 'none', 'name', 'note', 'group', 'unit', 'height', 'content', 'side', 'result'],
  ...['completed', 'ongoing', 'signature', 'treatment'],
  // the route pattern a request took, a label of the HTTP metrics (metrics/create-metrics.ts)
  'route',
  // item types (`photo`, `tracing`) and the tracing's outline names (engine/tracing.ts)
  ...['photo', 'tracing', 'perforation'],
  // the subject record, list columns, dashboard groupings, filters and report rows (packages/contract)
  ...['age', 'gender', 'consentDate', 'initials', 'visitDate', 'dropoutReason', 'serious', 'screeningNumber'],
  ...['startDate', 'endDate', 'severity', 'causality', 'outcome'],
]);

/** Each file (from the repository root) and the TMP-2026 keys it still names. Only ever shrinks: empty. */
const REMAINING: Record<string, string[]> = {};

/** Visit, form, repeating group, item and code list keys of TMP-2026's document, less the application's words. */
function studyKeys(): Set<string> {
  const file = path.join(repositoryRoot, 'packages/study/definitions', TM_PERFORATION_DOCUMENT);
  const document = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    visits: { key: string }[];
    forms: { key: string; sections: Section[]; variants?: { sections: Section[] }[] }[];
    codeLists: { key: string }[];
  };
  interface Section {
    repeating?: { key: string };
    items: { key: string }[];
  }
  const keys = new Set<string>(document.visits.map((visit) => visit.key));
  for (const form of document.forms) {
    keys.add(form.key);
    for (const section of [form.sections, ...(form.variants ?? []).map((v) => v.sections)].flat()) {
      if (section.repeating) keys.add(section.repeating.key);
      for (const item of section.items) keys.add(item.key);
    }
  }
  for (const list of document.codeLists) keys.add(list.key);
  for (const word of APPLICATION_WORDS) keys.delete(word);
  return keys;
}

/** The scanned sources: .ts and .tsx, not tests, test helpers, seeds, demo data or migrations. */
function sourceFiles(): string[] {
  return SCANNED.flatMap((root) =>
    fs
      .readdirSync(path.join(repositoryRoot, root), { recursive: true, encoding: 'utf8' })
      .map((file) => path.posix.join(root, file.split(path.sep).join('/')))
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) => !/\.(test|spec)\.tsx?$/.test(file) && !/(^|\/)test-[^/]*$/.test(file))
      .filter((file) => !/\/(seed|migrations)\//.test(file) && !/demo/i.test(path.posix.basename(file))),
  );
}

/** Comments out: they may quote a key to explain the code. (Whole-line and ` // ` trailing comments.) */
function withoutComments(text: string): string {
  return text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/(^|\s)\/\/\s.*$/gm, '$1');
}

/** Each file naming study keys, with the keys in order of first appearance. */
function namedKeys(): Record<string, string[]> {
  const keys = studyKeys();
  const found: Record<string, string[]> = {};
  for (const file of sourceFiles()) {
    const text = withoutComments(fs.readFileSync(path.join(repositoryRoot, file), 'utf8'));
    for (const match of text.matchAll(/(['"])([A-Za-z][A-Za-z0-9]*)\1/g)) {
      const key = match[2] as string;
      if (!keys.has(key)) continue;
      found[file] ??= [];
      if (!found[file].includes(key)) found[file].push(key);
    }
  }
  return found;
}

const sorted = (entries: Record<string, string[]>) =>
  Object.fromEntries(
    Object.entries(entries)
      .map(([file, keys]): [string, string[]] => [file, [...keys].sort()])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

describe("TMP-2026's keys in server and web code", () => {
  it('scans the sources and knows the study keys (the scan itself works)', () => {
    expect(sourceFiles().length).toBeGreaterThan(300);
    for (const root of SCANNED) expect(sourceFiles().some((file) => file.startsWith(`${root}/`))).toBe(true);
    expect(studyKeys()).toContain('demographicInfo');
    expect(studyKeys()).not.toContain('site');
  });

  it('are named only where REMAINING allows, and every allowed name is still there (the list only shrinks)', () => {
    expect(sorted(namedKeys())).toEqual(sorted(REMAINING));
  });
});
