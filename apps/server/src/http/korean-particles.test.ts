import { describe, expect, it } from 'vitest';
import { withParticle } from './korean-particles.ts';

describe('withParticle', () => {
  it('picks the particle by the last syllable’s final consonant', () => {
    expect(withParticle('이 대상자', '은/는')).toBe('이 대상자는');
    expect(withParticle('이 양식', '은/는')).toBe('이 양식은');
    expect(withParticle('이 기관', '이/가')).toBe('이 기관이');
    expect(withParticle('연구', '을/를')).toBe('연구를');
    expect(withParticle('쿼리', '과/와')).toBe('쿼리와');
  });

  it('takes 로 after ㄹ and a vowel, 으로 after any other consonant', () => {
    expect(withParticle('"서울"', '으로/로')).toBe('"서울"로');
    expect(withParticle('"아니오"', '으로/로')).toBe('"아니오"로');
    expect(withParticle('"예"', '으로/로')).toBe('"예"로');
    expect(withParticle('"남성"', '으로/로')).toBe('"남성"으로');
  });

  it('reads digits and Latin letters as Korean says them', () => {
    expect(withParticle('"120"', '으로/로')).toBe('"120"으로');
    expect(withParticle('"12"', '으로/로')).toBe('"12"로');
    expect(withParticle('"3"', '으로/로')).toBe('"3"으로');
    expect(withParticle('"7"', '으로/로')).toBe('"7"로');
    expect(withParticle('SDV', '은/는')).toBe('SDV는');
    expect(withParticle('"M"', '으로/로')).toBe('"M"으로');
    expect(withParticle('"5 mL"', '은/는')).toBe('"5 mL"은');
  });

  it('writes the form after a consonant when nothing readable precedes, never both', () => {
    expect(withParticle('""', '으로/로')).toBe('""으로');
  });
});
