import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.ts';

/**
 * Who may read /metrics: it names the server's routes and load, so it is not for the internet.
 * - With METRICS_TOKEN set: a request that sends `Authorization: Bearer <token>` (401 otherwise).
 * - Without: only a request from this machine (127.0.0.0/8, ::1) that no proxy forwarded (403
 *   otherwise). The peer's own address is checked, not the X-Forwarded-For client: a reverse proxy
 *   on the same host connects from loopback, so a request that carries forwarding headers is
 *   someone else's, passed on.
 */
export function metricsAccess(token: string | undefined) {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (expected !== undefined) {
      const sent = request.headers.authorization;
      // Compared as digests of equal length, in constant time: the answer does not leak the token.
      if (sent === undefined || !timingSafeEqual(digest(sent), expected))
        return sendError(request, reply, 401, 'unauthenticated');
      return undefined;
    }
    const forwarded =
      request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (forwarded || !isLoopback(request.socket.remoteAddress))
      return sendError(request, reply, 403, 'forbidden');
    return undefined;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}
