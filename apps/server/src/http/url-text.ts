import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';
import { isAcceptableText } from './text-policy.ts';

/**
 * onRequest hook: the query string and path parameters hold the same text as bodies do. Each query
 * name and value is percent-decoded here as strict UTF-8 (`%C3%28` is 400 malformed_url, where Fastify's
 * parser passed it on undecoded) and must be acceptable text (`%00` is 400 invalid_text, where it
 * reached the database and failed as a 500). Path parameters arrive decoded by the router.
 */
export async function refuseBadUrlText(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const url = request.raw.url ?? '';
  const queryStart = url.indexOf('?');
  const texts: string[] = [];
  if (queryStart >= 0) {
    for (const pair of url.slice(queryStart + 1).split('&')) {
      for (const part of pair.split('=')) {
        try {
          texts.push(decodeURIComponent(part.replaceAll('+', ' ')));
        } catch {
          return sendError(request, reply, 400, 'malformed_url');
        }
      }
    }
  }
  const params = request.params;
  if (params && typeof params === 'object')
    for (const value of Object.values(params)) if (typeof value === 'string') texts.push(value);
  if (!texts.every(isAcceptableText)) return sendError(request, reply, 400, 'invalid_text');
  return undefined;
}
