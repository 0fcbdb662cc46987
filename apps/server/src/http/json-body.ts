import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';
import { findJsonProblem } from './text-policy.ts';

/**
 * Replaces Fastify's JSON parser so a body is read only as what it says it is: UTF-8 JSON of valid
 * Unicode. Fastify's parser decoded any charset as UTF-8 and replaced invalid bytes with U+FFFD, which
 * was then stored (notices, comments, user names). bodyLimit (413) still applies: Fastify counts the
 * bytes before this parser runs.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request.headers['content-type'], body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function parseJsonBody(contentType: string | undefined, bytes: Buffer): unknown {
  const charset = charsetOf(contentType ?? '');
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8')
    throw new AppError(415, 'unsupported_charset');
  if (bytes.length === 0) throw new AppError(400, 'malformed_body');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(400, 'invalid_text');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, 'malformed_body');
  }
  const problem = findJsonProblem(value);
  if (problem === 'invalid_text') throw new AppError(400, 'invalid_text');
  if (problem === 'too_deep') throw new AppError(400, 'body_too_deep');
  if (problem === 'forbidden_key') throw new AppError(400, 'malformed_body');
  return value;
}

/** The lower-cased `charset` parameter of a Content-Type header, or null when there is none. */
function charsetOf(contentType: string): string | null {
  for (const parameter of contentType.split(';').slice(1)) {
    const [name = '', ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    return rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}
