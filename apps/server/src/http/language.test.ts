import { describe, expect, it } from 'vitest';
import { requestLanguage } from './language.ts';

const withHeader = (value?: string) => ({ headers: value === undefined ? {} : { 'accept-language': value } });

describe('requestLanguage', () => {
  it('defaults to Korean', () => {
    expect(requestLanguage(withHeader())).toBe('ko');
    expect(requestLanguage(withHeader('fr-FR'))).toBe('ko');
  });

  it('picks the best-ranked of ko and en', () => {
    expect(requestLanguage(withHeader('en'))).toBe('en');
    expect(requestLanguage(withHeader('en-US,en;q=0.9,ko;q=0.8'))).toBe('en');
    expect(requestLanguage(withHeader('ko-KR,ko;q=0.9,en-US;q=0.8'))).toBe('ko');
    expect(requestLanguage(withHeader('fr;q=1, en;q=0.5, ko;q=0.7'))).toBe('ko');
    expect(requestLanguage(withHeader('en;q=0, ko;q=0.1'))).toBe('ko');
    expect(requestLanguage(withHeader('en;q=abc'))).toBe('ko');
  });
});
