/**
 * Korean particles that depend on the word before them: 은/는, 이/가, 을/를, 과/와, 으로/로. A message
 * with a word filled in at run time cannot write the particle out, and "은(는)" reads as a form
 * letter; `withParticle` picks the one the word takes, from its last syllable's final consonant.
 *
 * A word that does not end in a Hangul syllable is read aloud as Korean readers say it: digits as
 * Sino-Korean numbers (1 일, 3 삼, 6 육, 7 칠, 8 팔, 0 영 end in a consonant; 2, 4, 5, 9 do not) and
 * Latin letters by their Korean names (L 엘, M 엠, N 엔, R 알 end in a consonant; the others do not);
 * anything else (punctuation, a closing quote) is looked through to the character before it.
 */

export const PARTICLES = ['은/는', '이/가', '을/를', '과/와', '으로/로'] as const;
export type Particle = (typeof PARTICLES)[number];

export function isParticle(text: string): text is Particle {
  return (PARTICLES as readonly string[]).includes(text);
}

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
/** The final consonant ㄹ's index among the 28 (0 = none): 으로/로 treats it as no consonant. */
const FINAL_RIEUL = 8;

/** The final consonant's index (0 = none) of how the word's end is read; undefined when unknown. */
function finalConsonant(word: string): number | undefined {
  const characters = [...word];
  for (let index = characters.length - 1; index >= 0; index -= 1) {
    const character = characters[index] ?? '';
    const code = character.codePointAt(0) ?? 0;
    if (code >= HANGUL_FIRST && code <= HANGUL_LAST) return (code - HANGUL_FIRST) % 28;
    if (/[0-9]/.test(character)) return DIGIT_FINALS[Number(character)];
    if (/[a-z]/i.test(character)) return LETTER_FINALS[character.toUpperCase()] ?? 0;
  }
  return undefined;
}

// 영 일 이 삼 사 오 육 칠 팔 구: ㅇ ㄹ – ㅁ – – ㄱ ㄹ ㄹ –.
const DIGIT_FINALS = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];
// 엘 엠 엔 알.
const LETTER_FINALS: Record<string, number> = { L: 8, M: 16, N: 4, R: 8 };

/** The word followed by the form of `particle` it takes: 대상자 + 은/는 → 대상자는, 양식 → 양식은. */
export function withParticle(word: string, particle: Particle): string {
  const [afterConsonant, afterVowel] = particle.split('/') as [string, string];
  const final = finalConsonant(word);
  // Nothing readable to go by (an empty value, punctuation only): the form after a consonant, which
  // reads as the spoken pause before it, rather than a "은(는)" placeholder.
  if (final === undefined) return `${word}${afterConsonant}`;
  const consonant = particle === '으로/로' ? final !== 0 && final !== FINAL_RIEUL : final !== 0;
  return `${word}${consonant ? afterConsonant : afterVowel}`;
}
