import type { RouteOptions } from 'fastify';
import { errorBodySchema } from './errors.ts';

/**
 * The non-2xx answers of the API in its OpenAPI document (issue 43 item 15), each in the one error
 * shape (`errorBodySchema`, the component `Error`) with a description of when it is given.
 *
 * Two sources, so each answer is written down beside the code that gives it:
 * - a route's own refusals, in its schema beside the 2xx answer: `response: { 200: x,
 *   ...refusals({ 409: '…' }) }` — what its command throws (a stale version, a missing reason, a hold);
 * - the answers that follow from how a route is made, added here for every route at registration
 *   (`documentRefusals`, an onRoute hook): any request can be malformed (400), a write's body can be too
 *   large or of another type (413, 415), a path can be too long (414), and a hook that refuses (sign-in,
 *   administrators only, the study access a route declares: `auth/route-access.ts`) carries its answers
 *   with it (`withRefusals`).
 * The fuzz suite and the authorization matrix fail on any status they see that the document does not list.
 */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 422 | 423 | 429;

export interface Refusal {
  description: string;
  content: { 'application/json': { schema: typeof errorBodySchema } };
}

function refusal(description: string): Refusal {
  return { description, content: { 'application/json': { schema: errorBodySchema } } };
}

/** A route's own refusals, by status: spread into its `schema.response` beside the 2xx answer. */
export function refusals<const T extends Partial<Record<RefusalStatus, string>>>(
  answers: T,
): { [K in keyof T]: Refusal } {
  const result: Record<string, Refusal> = {};
  for (const [status, description] of Object.entries(answers))
    if (description !== undefined) result[status] = refusal(description);
  return result as { [K in keyof T]: Refusal };
}

const givenAnswers = Symbol('refusals');
type Hook = (...args: never[]) => unknown;

/** Marks a route hook (a preHandler) with the answers it can refuse with; routes using it list them. */
export function withRefusals<F extends Hook>(hook: F, answers: Partial<Record<RefusalStatus, string>>): F {
  return Object.assign(hook, { [givenAnswers]: answers });
}

function refusalsOfHooks(route: RouteOptions): Partial<Record<RefusalStatus, string>>[] {
  const hooks = [route.onRequest, route.preValidation, route.preHandler].flat().filter(Boolean);
  return hooks.map(
    (hook) => (hook as { [givenAnswers]?: Partial<Record<RefusalStatus, string>> })[givenAnswers] ?? {},
  );
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The answers that follow from how any route is made (see the module comment). */
function refusalsOfShape(route: RouteOptions): Partial<Record<RefusalStatus, string>> {
  const answers: Partial<Record<RefusalStatus, string>> = {
    400:
      'The request is malformed: a path or query text that is not valid UTF-8 or holds NUL (`malformed_url`, `invalid_text`), ' +
      'a path, query or body that fails its schema (`validation_failed`, `details` lists the violations), ' +
      'a body that is not JSON (`malformed_body`), too deep (`body_too_deep`) or not allowed (`body_not_allowed`).',
  };
  if (route.url.includes('/:'))
    answers[414] = 'A path parameter is longer than the router accepts (`malformed_url`).';
  // A subject outside the caller's sites is told apart from none at all by nobody (`findSubjectInScope`).
  if (route.url.includes('/:subjectId'))
    answers[404] = 'No such subject, or one at a site the caller does not see (`not_found`).';
  if ([route.method].flat().some((method) => writeMethods.has(method))) {
    answers[413] = 'The body is larger than the server accepts (`payload_too_large`; 1 MB for JSON).';
    answers[415] =
      'The body is not of a type this route reads (`unsupported_media_type`) or JSON not in UTF-8 (`unsupported_charset`).';
  }
  return answers;
}

/**
 * onRoute hook: every /api route's `schema.response` gets the refusals of its shape and of its hooks,
 * merged with the route's own (both descriptions kept when a status comes from more than one place).
 */
export function documentRefusals(route: RouteOptions): void {
  if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
  const descriptions = new Map<string, string[]>();
  // The hooks' first (sign-in, the study), then the route's shape (the subject), then its own.
  for (const answers of [...refusalsOfHooks(route), refusalsOfShape(route)])
    for (const [status, description] of Object.entries(answers))
      if (description) descriptions.set(status, [...(descriptions.get(status) ?? []), description]);
  const response: Record<string, unknown> = { ...(route.schema?.response as Record<string, unknown>) };
  for (const [status, texts] of descriptions) {
    const own = response[status] as Refusal | undefined;
    const all = own ? [...texts, own.description] : texts;
    response[status] = refusal([...new Set(all)].join('\n\n'));
  }
  route.schema = { ...route.schema, response };
}
