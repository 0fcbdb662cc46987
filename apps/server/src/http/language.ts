import type { FastifyRequest } from 'fastify';

export type Language = 'ko' | 'en';

/** Words in both languages: the server's own labels, headers and messages. */
export type Text = Record<Language, string>;

/**
 * The language of a response's messages: the first of `ko`/`en` named in Accept-Language (the web
 * app sends the language the user picked), Korean when neither is named.
 */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'>): Language {
  const header = request.headers['accept-language'];
  if (typeof header !== 'string') return 'ko';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    if (entry.tag === 'ko' || entry.tag.startsWith('ko-')) return 'ko';
    if (entry.tag === 'en' || entry.tag.startsWith('en-')) return 'en';
  }
  return 'ko';
}
