import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorMessage, errorMessages } from './error-messages.ts';
import { isParticle } from './korean-particles.ts';

/**
 * Every text the server shows people, in both languages: the error catalogue and every `ko:`/`en:`
 * literal of the server's source (notifications, exports, audit labels, query messages, …).
 * - no "은(는)"-style particle placeholder in Korean (korean-particles.ts picks the particle);
 * - no Hangul in an English text;
 * - every Korean text has its English one.
 * The checks are written as functions of a file's text, so the test also shows they catch the
 * messages as they were ("{level}은(는) 잠금 …").
 */

const serverSource = path.resolve(import.meta.dirname, '..');
const HANGUL = /[\u3131-\u318E\uAC00-\uD7A3]/u;
/** A particle written both ways: 은(는), 이(가), 을(를), 과(와), (으)로, 아(야). */
const PARTICLE_PLACEHOLDER = /\((?:은|는|이|가|을|를|과|와|으|으로|로|아|야)\)/u;

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return typeScriptFiles(file);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The source without its comments (which may name a placeholder to say it is not used). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

const LITERAL = /\b(ko|en):\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`)/g;

/** What is wrong with one file's texts. */
function textProblems(file: string, source: string): string[] {
  const problems: string[] = [];
  const code = withoutComments(source);
  const literals = [...code.matchAll(LITERAL)].map((match) => ({
    language: match[1] as 'ko' | 'en',
    text: match[2] ?? match[3] ?? match[4] ?? '',
    at: match.index ?? 0,
  }));
  literals.forEach((literal, index) => {
    if (literal.language === 'en' && HANGUL.test(literal.text))
      problems.push(`${file}: Hangul in an English text: "${literal.text}"`);
    if (literal.language !== 'ko') return;
    // Its English: the next literal, an `en:` of the same object (before the next `ko:`).
    const next = literals[index + 1];
    if (next?.language !== 'en') problems.push(`${file}: no English for "${literal.text}"`);
  });
  // A placeholder in any Korean string of the file, not only `ko:` ones ("…"(으)로 in a ternary).
  for (const line of code.split('\n'))
    if (PARTICLE_PLACEHOLDER.test(line) && HANGUL.test(line))
      problems.push(`${file}: a particle written both ways: ${line.trim()}`);
  return problems;
}

describe('the server’s messages, in Korean and English', () => {
  it('catches what was wrong before: a particle written both ways, Hangul in English, Korean alone', () => {
    expect(
      textProblems('a.ts', "frozen: { ko: '{level}은(는) 잠금 상태입니다.', en: '{level} is locked.' }"),
    ).toHaveLength(1);
    const ternary = ['const t = `값이 "$', '{a}"에서 "$', '{b}"(으)로 변경되었습니다.`;'].join('');
    expect(textProblems('b.ts', ternary)).toHaveLength(1);
    expect(textProblems('c.ts', "x: { ko: '제목', en: '제목' }")).toHaveLength(1);
    expect(textProblems('d.ts', "x: { ko: '제목' }, y: 1")).toHaveLength(1);
    expect(textProblems('e.ts', "x: { ko: '연락처(전화번호)가 없습니다.', en: 'No phone number.' }")).toEqual(
      [],
    );
  });

  it('has every error message in both languages, the English without Hangul, the Korean without placeholders', () => {
    const problems: string[] = [];
    for (const [code, texts] of Object.entries(errorMessages)) {
      const { ko, en } = texts as { ko: string; en: string };
      if (!ko || !en) problems.push(`${code}: missing a language`);
      if (HANGUL.test(en)) problems.push(`${code}: Hangul in English`);
      if (PARTICLE_PLACEHOLDER.test(ko)) problems.push(`${code}: a particle written both ways`);
      // The same parameters in both; a particle only after a Korean parameter, and a known one.
      const names = (text: string) =>
        [...text.matchAll(/\{(\w+)(?:\|([^}]+))?\}/g)].map((match) => match[1]).sort();
      if (JSON.stringify(names(ko)) !== JSON.stringify(names(en)))
        problems.push(`${code}: parameters differ`);
      for (const match of en.matchAll(/\{\w+\|([^}]+)\}/g))
        problems.push(`${code}: particle ${match[1]} in English`);
      for (const match of ko.matchAll(/\{\w+\|([^}]+)\}/g))
        if (!isParticle(match[1] ?? '')) problems.push(`${code}: unknown particle ${match[1]}`);
    }
    expect(problems).toEqual([]);
  });

  it('has every ko/en text of the server in both languages, without placeholders or Hangul in English', () => {
    const problems = typeScriptFiles(serverSource).flatMap((file) =>
      textProblems(path.relative(serverSource, file), readFileSync(file, 'utf8')),
    );
    expect(problems).toEqual([]);
  });

  it('writes the lock and freeze refusals with the particle each level takes', () => {
    const level = (ko: string, en: string) => ({ level: { ko, en } });
    expect(errorMessage('locked', 'ko', level('이 대상자', 'This subject'))).toBe(
      '이 대상자는 잠금 상태여서 아무것도 변경할 수 없습니다.',
    );
    expect(errorMessage('locked', 'ko', level('이 양식', 'This form'))).toMatch(/^이 양식은 잠금/);
    expect(errorMessage('frozen', 'ko', level('이 기관', 'This site'))).toMatch(/^이 기관은 프리징되어/);
    expect(errorMessage('frozen', 'ko', level('이 연구', 'This study'))).toMatch(/^이 연구는 프리징되어/);
    expect(errorMessage('locked', 'en', level('이 대상자', 'This subject'))).toBe(
      'This subject is locked: nothing can change.',
    );
  });
});
