import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ErrorCode, errorMessage, type MessageParam } from './error-messages.ts';
import { requestLanguage } from './language.ts';

/**
 * One error shape for every API error: `{"error":{"code","message","details"?}}`. Registered once (id
 * `Error`) as an OpenAPI component that every documented refusal refers to (`refusals.ts`).
 */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({
        description:
          'Stable code of the refusal, for programs (e.g. `version_conflict`, `reason_required`, `locked`).',
        example: 'not_found',
      }),
      message: z.string().meta({
        description:
          'The refusal in words, in the language of Accept-Language (Korean by default, or English).',
      }),
      details: z
        .unknown()
        .optional()
        .meta({
          description:
            'Facts of some refusals, by code: the schema violations of `validation_failed` (`[{location, path, message}]`), ' +
            'the hold to lift first, the items or subjects concerned, the password rules not met.',
        }),
    }),
  })
  .meta({ id: 'Error', description: 'The one shape of every error answer of the API.' });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * An expected failure a handler reports: the status, a stable code and the message parameters.
 * The message itself is chosen in the requester's language when the response is written.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly params: Record<string, MessageParam>;
  readonly details?: unknown;

  constructor(
    statusCode: number,
    code: ErrorCode,
    params: Record<string, MessageParam> = {},
    details?: unknown,
  ) {
    super(code);
    this.statusCode = statusCode;
    this.code = code;
    this.params = params;
    this.details = details;
    this.name = 'AppError';
  }
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  code: ErrorCode,
  params: Record<string, MessageParam> = {},
  details?: unknown,
): FastifyReply {
  const language = requestLanguage(request);
  const body: ErrorBody = {
    error: {
      code,
      message: errorMessage(code, language, params),
      ...(details === undefined ? {} : { details: localizeMessages(details, language) }),
    },
  };
  return reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * Detail entries may carry a `message` in both languages (from the study's rules); the response
 * keeps the requester's language only.
 */
function localizeMessages(details: unknown, language: 'ko' | 'en'): unknown {
  if (Array.isArray(details)) return details.map((entry) => localizeMessages(entry, language));
  if (details === null || typeof details !== 'object') return details;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    const bilingual =
      key === 'message' && value !== null && typeof value === 'object' && 'ko' in value && 'en' in value;
    result[key] = bilingual
      ? (value as Record<'ko' | 'en', string>)[language]
      : localizeMessages(value, language);
  }
  return result;
}

/** Fastify's own client-error codes, mapped onto ours. Anything else that is 4xx is a bad request. */
const fastifyCodeMap: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'malformed_body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'malformed_body' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'malformed_body' },
};

/**
 * Fastify's `frameworkErrors` hook: failures found before a route is chosen. A bad URL
 * (FST_ERR_BAD_URL, e.g. `%E0%A4%A` in the path) or an over-long path parameter is the client's
 * fault: 400 in the error shape and the requester's language.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') return sendError(request, reply, 400, 'malformed_url');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(request, reply, 414, 'malformed_url');
  return sendError(request, reply, 400, 'validation_failed');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.statusCode, error.code, error.params, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        location: error.validationContext,
        path: issue.instancePath,
        message: issue.message,
      }));
      return sendError(request, reply, 400, 'validation_failed', {}, details);
    }
    if (error.code && fastifyCodeMap[error.code]) {
      const mapped = fastifyCodeMap[error.code] as { status: number; code: ErrorCode };
      return sendError(request, reply, mapped.status, mapped.code);
    }
    if (error instanceof SyntaxError) {
      return sendError(request, reply, 400, 'malformed_body');
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(request, reply, 429, 'too_many_requests');
    if (status >= 400 && status < 500) {
      return sendError(request, reply, status, 'validation_failed', {}, [{ message: error.message }]);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, 'internal_error');
  });
}
