import type { Socket } from 'node:net';
import { type ErrorCode, errorMessage } from './error-messages.ts';
import { requestLanguage } from './language.ts';

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them (a URL or
 * headers over the 16 KB limit, a request that is not HTTP, a timeout). Fastify's default answered these
 * in its own English shape; they get the one error shape and, when the Accept-Language header can be
 * found in what was received, the reader's language (else Korean, the default).
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code } = statusOf(error.code);
  const language = requestLanguage({ headers: { 'accept-language': acceptLanguageIn(error.rawPacket) } });
  const body = JSON.stringify({ error: { code, message: errorMessage(code, language) } });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${statusText[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  socket.destroy();
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function statusOf(nodeCode: string | undefined): { status: number; code: ErrorCode } {
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large' };
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout' };
  return { status: 400, code: 'malformed_request' };
}

/** The Accept-Language value in the raw bytes Node received, if the header is there in full. */
function acceptLanguageIn(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  return /\r\naccept-language:[ \t]*([^\r\n]*)\r\n/i.exec(rawPacket.toString('latin1'))?.[1];
}
