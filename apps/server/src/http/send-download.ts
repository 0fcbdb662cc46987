import type { FastifyReply } from 'fastify';

/**
 * Answers with a file the browser saves. Every download of study data (exports, casebooks,
 * certificates) carries the same three headers, and `no-store` must never be forgotten on one of
 * them: a shared or browser cache would otherwise keep patient data.
 */
export function sendDownload(reply: FastifyReply, contentType: string, disposition: string, body: unknown) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', disposition)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The disposition of a download whose name is plain ASCII (the server makes those names). */
export function attachmentNamed(fileName: string): string {
  return `attachment; filename="${fileName}"`;
}

/**
 * The disposition of a download whose name may hold any character (a study code, a file name the
 * user chose): `filename` with every character but letters, digits, `.`, `_` and `-` as `_`, so
 * nothing can break out of the header, and the name itself as RFC 5987 `filename*`.
 */
export function attachmentNamedInUtf8(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
