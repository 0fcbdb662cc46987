import { z } from 'zod';

/**
 * A file answer's body, as the OpenAPI document shows it: bytes. `z.any()` because the handler
 * sends a Buffer, a stream or a string, which Fastify passes on without a serializer.
 */
const fileBody = z.any().meta({ type: 'string', format: 'binary' });

/** The 2xx answer of a download route (CSV, PDF, ZIP, an image…): documented, not serialized. */
export function fileAnswer(description: string, mediaTypes: readonly string[]) {
  return {
    description,
    content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: fileBody }])),
  };
}

/** The media types of the table downloads (`exportContentTypes`): CSV and XLSX. */
export const tableFileTypes = [
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];
