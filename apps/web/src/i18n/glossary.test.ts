import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { resources } from './resources.ts';

/**
 * docs/GLOSSARY.md is the one vocabulary of the product: this test reads its table and fails when a
 * user-facing string uses a word the glossary says to avoid. Strings checked: the web app's
 * resources, the study definition's labels, and every `ko:`/`en:` text of the server (error
 * messages, export headers, seeded texts).
 */

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

interface GlossaryEntry {
  english: string;
  korean: string;
  avoidKorean: string[];
  avoidEnglish: string[];
}

function splitList(cell: string): string[] {
  return cell
    .split(';')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}

export function parseGlossary(markdown: string): GlossaryEntry[] {
  const table = markdown.split('<!-- glossary:start -->')[1]?.split('<!-- glossary:end -->')[0];
  if (!table) throw new Error('docs/GLOSSARY.md has no glossary table between its markers');
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1) // the header row
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      if (cells.length !== 5) throw new Error(`glossary row without five cells: ${line}`);
      const [english = '', korean = '', , avoidKorean = '', avoidEnglish = ''] = cells;
      return { english, korean, avoidKorean: splitList(avoidKorean), avoidEnglish: splitList(avoidEnglish) };
    });
}

interface Text {
  where: string;
  language: 'ko' | 'en';
  text: string;
}

function resourceTexts(): Text[] {
  const texts: Text[] = [];
  const walk = (value: unknown, where: string, language: 'ko' | 'en') => {
    if (typeof value === 'string') texts.push({ where, language, text: value });
    else if (typeof value === 'object' && value !== null)
      for (const [key, child] of Object.entries(value)) walk(child, `${where}.${key}`, language);
  };
  for (const language of ['ko', 'en'] as const)
    for (const [namespace, value] of Object.entries(resources[language]))
      walk(value, `locales/${language}/${namespace}`, language);
  return texts;
}

/** Every `{ ko, en }` pair of the study definition (labels, help, messages, code lists). */
function definitionTexts(): Text[] {
  const texts: Text[] = [];
  const walk = (value: unknown, where: string) => {
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (typeof record.ko === 'string' && typeof record.en === 'string') {
      texts.push({ where, language: 'ko', text: record.ko }, { where, language: 'en', text: record.en });
      return;
    }
    for (const [key, child] of Object.entries(record)) walk(child, `${where}.${key}`);
  };
  walk(tmPerforationStudy, 'study definition');
  return texts;
}

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return typeScriptFiles(file);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The server's user-facing texts: every `ko: '…'` and `en: '…'` literal in its source. */
function serverTexts(): Text[] {
  const texts: Text[] = [];
  const literal = /\b(ko|en):\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`([^`]*)`)/g;
  for (const file of typeScriptFiles(path.join(repositoryRoot, 'apps/server/src'))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(literal)) {
      const text = match[2] ?? match[3] ?? match[4] ?? '';
      texts.push({ where: path.relative(repositoryRoot, file), language: match[1] as 'ko' | 'en', text });
    }
  }
  return texts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Korean words are matched as substrings (no spaces inside words); English as whole words. */
function containsWord(text: string, word: string, language: 'ko' | 'en'): boolean {
  if (language === 'ko') return text.includes(word);
  return new RegExp(`(^|[^\\p{L}\\p{N}_-])${escapeRegExp(word)}($|[^\\p{L}\\p{N}_-])`, 'iu').test(text);
}

function violations(entries: GlossaryEntry[], texts: Text[]): string[] {
  const found: string[] = [];
  for (const { where, language, text } of texts)
    for (const entry of entries)
      for (const word of language === 'ko' ? entry.avoidKorean : entry.avoidEnglish)
        if (containsWord(text, word, language))
          found.push(
            `${where}: "${word}" → "${language === 'ko' ? entry.korean : entry.english}" in "${text}"`,
          );
  return found;
}

const glossary = parseGlossary(readFileSync(path.join(repositoryRoot, 'docs/GLOSSARY.md'), 'utf8'));

describe('the glossary (docs/GLOSSARY.md)', () => {
  it('has its terms, each in Korean and English', () => {
    expect(glossary.length).toBeGreaterThan(20);
    for (const entry of glossary) {
      expect(entry.english, JSON.stringify(entry)).not.toBe('');
      expect(entry.korean, JSON.stringify(entry)).not.toBe('');
    }
    expect(glossary.find((entry) => entry.english === 'subject')?.korean).toBe('대상자');
  });

  it('never advises against a term it prescribes', () => {
    const prescribedKorean = glossary.map((entry) => entry.korean);
    for (const entry of glossary)
      for (const word of entry.avoidKorean) expect(prescribedKorean, word).not.toContain(word);
  });

  it('finds an avoided word, Korean inside words and English as a whole word only', () => {
    const sample: GlossaryEntry[] = [
      { english: 'subject', korean: '대상자', avoidKorean: ['피험자'], avoidEnglish: ['patient'] },
    ];
    const text = (language: 'ko' | 'en', value: string): Text => ({ where: 'sample', language, text: value });
    expect(violations(sample, [text('ko', '피험자 목록')])).toHaveLength(1);
    expect(violations(sample, [text('ko', '대상자 목록')])).toEqual([]);
    expect(violations(sample, [text('en', 'Patient list')])).toHaveLength(1);
    expect(violations(sample, [text('en', 'Outpatient visit'), text('en', 'patients-first')])).toEqual([]);
  });

  it('is followed by every web resource string', () => {
    expect(violations(glossary, resourceTexts())).toEqual([]);
  });

  it('is followed by every label of the study definition', () => {
    const texts = definitionTexts();
    expect(texts.length).toBeGreaterThan(500);
    expect(violations(glossary, texts)).toEqual([]);
  });

  it('is followed by every Korean and English text of the server', () => {
    const texts = serverTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(violations(glossary, texts)).toEqual([]);
  });
});
