import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import { sendError } from './errors.ts';

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * onRoute hook, one place for every route's body rule:
 * - a route that takes a body declares it as a strict object (unknown keys → 400): a typo in a field
 *   name must not be ignored while the request answers 200. A route declaring a loose object is a
 *   programming error and stops the server at start.
 * - a write without a body schema (logout, resets, deletes…) refuses any body with 400, instead of acting
 *   whatever the body says. Multipart uploads read their body themselves and are left alone.
 */
export function applyBodyPolicy(route: RouteOptions): void {
  const body = route.schema?.body;
  if (body !== undefined) {
    if (body instanceof z.ZodObject && !(body.def.catchall instanceof z.ZodNever))
      throw new Error(`${route.url}: a request body must be a z.strictObject (unknown keys are refused).`);
    return;
  }
  const methods = [route.method].flat();
  if (!methods.some((method) => methodsWithBody.has(method))) return;
  const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
  if (consumes.includes('multipart/form-data')) return;
  route.preValidation = [...[route.preValidation ?? []].flat(), refuseAnyBody];
}

async function refuseAnyBody(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (hasBody(request)) return sendError(request, reply, 400, 'body_not_allowed');
  return undefined;
}

/** A body was sent: any bytes at all (`{}` and `null` too), or a chunked body of unknown length. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}
