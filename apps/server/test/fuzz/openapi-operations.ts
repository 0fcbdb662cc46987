/**
 * The operations of the server's OpenAPI document, in the shape the fuzz suite needs: method, path
 * template, path and query parameters with their JSON schemas, and the request body (JSON, multipart
 * or none). The document is generated from the routes' zod schemas, so a new route joins the fuzz
 * suite without anyone listing it.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export interface Parameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI template, e.g. `/api/studies/{studyId}/notices`. */
  path: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  body: { kind: 'json'; schema: JsonSchema } | { kind: 'multipart' } | { kind: 'none' };
  /** The statuses the document lists for it ('200', '404', …). */
  responses: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        responses?: Record<string, unknown>;
      }
    >
  >;
}

/** Routes that take a file upload: the document does not describe their multipart body. */
const multipartPaths = new Set([
  '/api/uploads/images',
  '/api/studies/{studyId}/attachments',
  '/api/studies/{studyId}/subjects/{subjectId}/forms/{visitKey}/{formKey}/photos',
]);

export function operationsOf(document: unknown): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries((document as OpenApiDocument).paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const parametersIn = (place: string): Parameter[] =>
        parameters
          .filter((parameter) => parameter.in === place)
          .map((parameter) => ({
            name: parameter.name,
            schema: parameter.schema,
            required: parameter.required ?? false,
          }));
      const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParameters: parametersIn('path'),
        queryParameters: parametersIn('query'),
        body: jsonSchema
          ? { kind: 'json', schema: jsonSchema }
          : multipartPaths.has(path) && method === 'post'
            ? { kind: 'multipart' }
            : { kind: 'none' },
        responses: Object.keys(operation.responses ?? {}),
      });
    }
  }
  return operations;
}
