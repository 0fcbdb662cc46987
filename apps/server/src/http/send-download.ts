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
