/**
 * A user's one stored name (`users.name`) split into the given and family names ODM's `User` offers
 * (1.3.2 FirstName/LastName, 2.0 GivenName/FamilyName): importers such as OpenEDC read those, not
 * FullName. CDMS stores a single name, so the split is a rule, and FullName stays the name as written.
 *
 * - A Korean name is written family name first, without a space: 김연구 → family 김, given 연구.
 *   Most family names are one syllable, so a name of two or three syllables splits after the first.
 *   A two-syllable family name (남궁, 황보, 제갈, 선우, …) is taken only when at least two syllables are
 *   left (남궁민수 → 남궁 + 민수): in a three-syllable name the one-syllable reading is the commoner one
 *   (황보람 is 황 + 보람 far more often than 황보 + 람), and FullName keeps the name whole either way.
 * - A Korean name with spaces keeps the same order: the first word is the family name (김 연구).
 * - Any other name with spaces is taken in Western order: the last word is the family name
 *   (Jane Q. Doe → given "Jane Q.", family "Doe").
 * - A single word that is not a Korean name of two or more syllables cannot be split: it is the family
 *   name, and the given name is empty (an importer finds both elements, as it expects).
 */

const COMPOUND_FAMILY_NAMES = new Set(['남궁', '황보', '제갈', '선우', '독고', '사공', '서문', '동방']);

const HANGUL_WORD = /^[\uAC00-\uD7A3]+$/u;

export interface PersonName {
  given: string;
  family: string;
}

export function splitPersonName(fullName: string): PersonName {
  const words = fullName
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  if (words.length === 0) return { given: '', family: '' };
  if (words.every((word) => HANGUL_WORD.test(word))) {
    if (words.length > 1) return { family: words[0] ?? '', given: words.slice(1).join(' ') };
    const syllables = [...(words[0] ?? '')];
    if (syllables.length < 2) return { family: syllables.join(''), given: '' };
    const familyLength =
      syllables.length >= 4 && COMPOUND_FAMILY_NAMES.has(syllables.slice(0, 2).join('')) ? 2 : 1;
    return {
      family: syllables.slice(0, familyLength).join(''),
      given: syllables.slice(familyLength).join(''),
    };
  }
  if (words.length === 1) return { family: words[0] ?? '', given: '' };
  return { given: words.slice(0, -1).join(' '), family: words[words.length - 1] ?? '' };
}
