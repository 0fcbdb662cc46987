import fc from 'fast-check';
import type { JsonSchema, Operation, Parameter } from './openapi-operations.ts';
import { isDateName, valueMatching } from './schema-arbitraries.ts';

/**
 * Malformed requests for one operation: a plausible request built from the operation's schemas, then
 * broken by exactly one defect of a named kind. Every defect is one the server must refuse whatever
 * the rest of the request says, so the only right answer is a 4xx in the error shape with nothing
 * changed. The kinds cover the issue-11 findings (non-canonical and out-of-range ids, NUL, lone
 * surrogates, invalid UTF-8, foreign charsets, impossible dates, unknown keys, bodies on body-less
 * actions, truncated multipart, deep JSON) plus plain schema violations.
 */
export interface MalformedRequest {
  defect: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface RequestContext {
  visitKeys: string[];
  formKeys: string[];
}

type Parts = { path: Record<string, string>; query: Record<string, string>; body: unknown };
type Broken = {
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** Raw body text or bytes and content type; absent means "the base body as JSON" (or none). */
  payload?: { bytes: string | Buffer; contentType: string } | null;
};
type Defect = {
  name: string;
  appliesTo: (operation: Operation) => boolean;
  apply: (operation: Operation, parts: Parts) => fc.Arbitrary<Broken>;
};

const nonCanonicalIds = [
  '0x13',
  '1.6e1',
  '16.0',
  '%2016',
  '+16',
  '016',
  '16%20',
  '%0916',
  '1e1',
  '2147483648',
  '99999999999999999999',
  '-1',
  '0',
  '00',
  'abc',
  '%00',
  '1%00',
];
const badText = ['%00', 'a%00b', '%ED%A0%80', '%ED%BF%BF', '%E0%A4%A', '%C3%28', '%FF', '%C0%AF'];
const badDates = [
  '2026-02-30',
  '2026-13-01',
  '2026-00-10',
  '20260101',
  '2026-1-1',
  '2025-02-29',
  '0000-01-01',
  'yesterday',
];
const badQueryIntegers = ['0x13', '1.6e1', '16.0', '-1', '0', '2147483648', 'abc', '1%00'];

const hasBody = (operation: Operation) => operation.body.kind === 'json';
const jsonProperties = (operation: Operation): [string, JsonSchema][] =>
  operation.body.kind === 'json' ? Object.entries(operation.body.schema.properties ?? {}) : [];
const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);
/** An id or count written as a decimal: an integer schema, or the contract's canonical-decimal string. */
const isDecimal = (schema: JsonSchema) =>
  typeOf(schema) === 'integer' ||
  (typeOf(schema) === 'string' && (schema.pattern ?? '').startsWith('^[1-9][0-9]'));
const jsonPayload = (body: unknown) => ({ bytes: JSON.stringify(body), contentType: 'application/json' });

/** A copy of the base body (an object) with `name` set to `value`. */
function withProperty(body: unknown, name: string, value: unknown): Record<string, unknown> {
  return { ...(body as Record<string, unknown>), [name]: value };
}

function pickProperty(operation: Operation, keep: (name: string, schema: JsonSchema) => boolean) {
  const properties = jsonProperties(operation).filter(([name, schema]) => keep(name, schema));
  return properties.length ? fc.constantFrom(...properties) : undefined;
}

const defects: Defect[] = [
  {
    name: 'path-non-canonical-id',
    appliesTo: (op) => op.pathParameters.some((p) => isDecimal(p.schema)),
    apply: (op, parts) =>
      fc
        .tuple(
          fc.constantFrom(...op.pathParameters.filter((p) => isDecimal(p.schema))),
          fc.constantFrom(...nonCanonicalIds),
        )
        .map(([parameter, id]) => ({ path: { ...parts.path, [parameter.name]: id } })),
  },
  {
    name: 'path-bad-text',
    appliesTo: (op) => op.pathParameters.length > 0,
    apply: (op, parts) =>
      fc
        .tuple(
          fc.constantFrom(...op.pathParameters),
          // A traversal attempt inside one segment: a bare `%2E%2E` segment would be resolved by the URL
          // parser of the test client itself (WHATWG dot segments) into another, valid route's path.
          fc.constantFrom(...badText, 'x'.repeat(60), '%2E%2E%2Fetc%2Fpasswd', 'V1%2Fx'),
        )
        .map(([parameter, text]) => ({ path: { ...parts.path, [parameter.name]: text } })),
  },
  {
    name: 'query-bad-text',
    appliesTo: () => true,
    apply: (op, parts) =>
      fc
        .tuple(fc.constantFrom(...op.queryParameters.map((p) => p.name), 'q'), fc.constantFrom(...badText))
        .map(([name, text]) => ({ query: { ...parts.query, [name]: text } })),
  },
  {
    name: 'query-schema-violation',
    appliesTo: (op) => op.queryParameters.some((p) => queryViolations(p).length > 0),
    apply: (op, parts) =>
      fc
        .constantFrom(...op.queryParameters.filter((p) => queryViolations(p).length > 0))
        .chain((parameter) =>
          fc
            .constantFrom(...queryViolations(parameter))
            .map((value) => ({ query: { ...parts.query, [parameter.name]: value } })),
        ),
  },
  {
    name: 'body-unknown-key',
    appliesTo: hasBody,
    apply: (_op, parts) =>
      fc
        .constantFrom('fuzzUnknown', '__proto__x', 'constructor', 'isAdmin')
        .map((key) => ({ payload: jsonPayload(withProperty(parts.body, key, 1)) })),
  },
  {
    name: 'body-nul',
    appliesTo: hasBody,
    apply: (op, parts) => stringPropertyOrNew(op, parts, (text) => `${text}\u0000`),
  },
  {
    name: 'body-lone-surrogate',
    appliesTo: hasBody,
    apply: (op, parts) =>
      fc.constantFrom('\\ud800', '\\udfff', 'a\\udc00b').chain((surrogate) =>
        stringPropertyOrNew(op, parts, (text) => `${text}@@SURROGATE@@`).map((broken) => ({
          payload: broken.payload && {
            ...broken.payload,
            bytes: String(broken.payload.bytes).replace('@@SURROGATE@@', surrogate),
          },
        })),
      ),
  },
  {
    name: 'body-invalid-utf8',
    appliesTo: hasBody,
    apply: (op, parts) =>
      fc.constantFrom([0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]).chain((bytes) =>
        stringPropertyOrNew(op, parts, (text) => `${text}@@BYTES@@`).map((broken) => {
          const [before, after] = String(broken.payload?.bytes).split('@@BYTES@@');
          return {
            payload: {
              bytes: Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bytes), Buffer.from(after ?? '')]),
              contentType: 'application/json',
            },
          };
        }),
      ),
  },
  {
    name: 'body-foreign-charset',
    appliesTo: hasBody,
    apply: (_op, parts) =>
      fc.constantFrom('utf-16', 'utf-16le', 'latin1', 'iso-8859-1', 'euc-kr').map((charset) => ({
        payload: {
          bytes: charset.startsWith('utf-16')
            ? Buffer.from(JSON.stringify(parts.body), 'utf16le')
            : JSON.stringify(parts.body),
          contentType: `application/json; charset=${charset}`,
        },
      })),
  },
  {
    name: 'body-wrong-content-type',
    appliesTo: hasBody,
    apply: (_op, parts) =>
      fc
        .constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
        )
        .map((contentType) => ({
          payload: { bytes: JSON.stringify(parts.body), contentType },
        })),
  },
  {
    name: 'body-not-an-object',
    appliesTo: hasBody,
    apply: () =>
      fc
        .constantFrom('[]', '42', '"x"', 'null', 'true', '[{}]', '')
        .map((bytes) => ({ payload: { bytes, contentType: 'application/json' } })),
  },
  {
    name: 'body-truncated-json',
    appliesTo: hasBody,
    apply: (_op, parts) =>
      fc.integer({ min: 1, max: 1000 }).map((cut) => {
        const text = JSON.stringify(parts.body);
        return {
          payload: {
            bytes: text.slice(0, Math.max(1, Math.min(text.length - 1, cut))),
            contentType: 'application/json',
          },
        };
      }),
  },
  {
    name: 'body-deep-nesting',
    appliesTo: hasBody,
    apply: (_op, parts) =>
      fc.integer({ min: 200, max: 5000 }).map((depth) => {
        const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
        const base = JSON.stringify(parts.body);
        return {
          payload: {
            bytes: `${base.slice(0, -1)}${base.length > 2 ? ',' : ''}"deep":${nested}}`,
            contentType: 'application/json',
          },
        };
      }),
  },
  {
    name: 'body-missing-required',
    appliesTo: (op) => op.body.kind === 'json' && (op.body.schema.required ?? []).length > 0,
    apply: (op, parts) =>
      fc.constantFrom(...(op.body.kind === 'json' ? (op.body.schema.required ?? []) : [])).map((name) => {
        const body = { ...(parts.body as Record<string, unknown>) };
        delete body[name];
        return { payload: jsonPayload(body) };
      }),
  },
  {
    name: 'body-wrong-type',
    appliesTo: (op) => jsonProperties(op).length > 0,
    apply: (op, parts) =>
      (pickProperty(op, () => true) as fc.Arbitrary<[string, JsonSchema]>).map(([name, schema]) => ({
        payload: jsonPayload(withProperty(parts.body, name, wrongTypeFor(schema))),
      })),
  },
  {
    name: 'body-out-of-range',
    appliesTo: (op) =>
      pickProperty(
        op,
        (_n, s) => typeOf(s) === 'integer' || (typeOf(s) === 'array' && typeOf(s.items ?? {}) === 'integer'),
      ) !== undefined,
    apply: (op, parts) =>
      fc
        .tuple(
          pickProperty(
            op,
            (_n, s) =>
              typeOf(s) === 'integer' || (typeOf(s) === 'array' && typeOf(s.items ?? {}) === 'integer'),
          ) as fc.Arbitrary<[string, JsonSchema]>,
          fc.constantFrom(2147483648, 9007199254740992, -1, 1.5, 1e308, -2147483649),
        )
        .map(([[name, schema], value]) => ({
          payload: jsonPayload(
            withProperty(parts.body, name, typeOf(schema) === 'array' ? [value] : outOfRange(schema, value)),
          ),
        })),
  },
  {
    name: 'body-bad-date',
    appliesTo: (op) =>
      pickProperty(op, (name, s) => typeOf(s) === 'string' && isDateName(name)) !== undefined,
    apply: (op, parts) =>
      fc
        .tuple(
          pickProperty(op, (name, s) => typeOf(s) === 'string' && isDateName(name)) as fc.Arbitrary<
            [string, JsonSchema]
          >,
          fc.constantFrom(...badDates),
        )
        .map(([[name], date]) => ({ payload: jsonPayload(withProperty(parts.body, name, date)) })),
  },
  {
    name: 'body-bad-enum',
    appliesTo: (op) => pickProperty(op, (_n, s) => Array.isArray(s.enum)) !== undefined,
    apply: (op, parts) =>
      (pickProperty(op, (_n, s) => Array.isArray(s.enum)) as fc.Arbitrary<[string, JsonSchema]>).map(
        ([name]) => ({
          payload: jsonPayload(withProperty(parts.body, name, 'NOT_A_MEMBER')),
        }),
      ),
  },
  {
    name: 'body-too-long',
    appliesTo: (op) => pickProperty(op, (_n, s) => typeof s.maxLength === 'number') !== undefined,
    apply: (op, parts) =>
      (
        pickProperty(op, (_n, s) => typeof s.maxLength === 'number') as fc.Arbitrary<[string, JsonSchema]>
      ).map(([name, schema]) => ({
        payload: jsonPayload(withProperty(parts.body, name, 'x'.repeat((schema.maxLength ?? 0) + 1))),
      })),
  },
  {
    name: 'body-empty-update',
    appliesTo: (op) => hasBody(op) && (op.method === 'PUT' || op.method === 'PATCH'),
    apply: () =>
      fc
        .constantFrom('{}', '{"fuzzUnknown":1}')
        .map((bytes) => ({ payload: { bytes, contentType: 'application/json' } })),
  },
  {
    name: 'unexpected-body',
    appliesTo: (op) => op.body.kind === 'none' && op.method !== 'GET',
    apply: () =>
      fc
        .constantFrom('{}', '{"a":1}', '"x"', '[]', 'null')
        .map((bytes) => ({ payload: { bytes, contentType: 'application/json' } })),
  },
  {
    name: 'multipart-malformed',
    appliesTo: (op) => op.body.kind === 'multipart',
    apply: () => fc.constantFrom(...multipartDefects()).map((payload) => ({ payload })),
  },
];

export const defectNames = defects.map((defect) => defect.name);

export function applicableDefects(operation: Operation): string[] {
  return defects.filter((defect) => defect.appliesTo(operation)).map((defect) => defect.name);
}

/** A malformed request for `operation` with the named defect (or any applicable one). */
export function malformedRequest(
  operation: Operation,
  context: RequestContext,
  defectName?: string,
): fc.Arbitrary<MalformedRequest> {
  const candidates = defects.filter(
    (defect) => defect.appliesTo(operation) && (!defectName || defect.name === defectName),
  );
  if (candidates.length === 0)
    throw new Error(`no defect ${defectName ?? ''} for ${operation.method} ${operation.path}`);
  return fc
    .record({
      parts: baseParts(operation, context),
      defect: fc.constantFrom(...candidates),
      language: fc.constantFrom('ko', 'en'),
    })
    .chain(({ parts, defect, language }) =>
      defect
        .apply(operation, parts)
        .map((broken) => toRequest(operation, parts, broken, defect.name, language)),
    );
}

function baseParts(operation: Operation, context: RequestContext): fc.Arbitrary<Parts> {
  const path: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of operation.pathParameters) {
    path[parameter.name] = isDecimal(parameter.schema)
      ? fc.integer({ min: 1, max: 40 }).map(String)
      : parameter.name === 'visitKey'
        ? fc.constantFrom(...context.visitKeys)
        : parameter.name === 'formKey'
          ? fc.constantFrom(...context.formKeys)
          : fc.stringMatching(/^[a-z]{1,8}$/);
  }
  const query: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of operation.queryParameters)
    query[parameter.name] = valueMatching(parameter.schema).map(String);
  return fc.record({
    path: fc.record(path),
    query: fc.record(query, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>,
    body: operation.body.kind === 'json' ? valueMatching(operation.body.schema) : fc.constant(undefined),
  });
}

function toRequest(
  operation: Operation,
  parts: Parts,
  broken: Broken,
  defect: string,
  language: string,
): MalformedRequest {
  const path = broken.path ?? parts.path;
  const query = broken.query ?? parts.query;
  let url = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = path[name] ?? '1';
    // Values a defect chose are sent exactly as written (they may be deliberately bad encodings).
    return broken.path && broken.path[name] !== parts.path[name] ? value : encodeURIComponent(value);
  });
  const queryText = Object.entries(query)
    .map(
      ([name, value]) =>
        `${encodeURIComponent(name)}=${broken.query && broken.query[name] !== parts.query[name] ? value : encodeURIComponent(value)}`,
    )
    .join('&');
  if (queryText) url += `?${queryText}`;
  const headers: Record<string, string> = { 'accept-language': language };
  let payload: string | Buffer | undefined;
  if (broken.payload) {
    payload = broken.payload.bytes;
    headers['content-type'] = broken.payload.contentType;
  } else if (operation.body.kind === 'json') {
    payload = JSON.stringify(parts.body);
    headers['content-type'] = 'application/json';
  }
  return { defect, method: operation.method, url, headers, payload };
}

/** Values of a query parameter its schema refuses. */
function queryViolations(parameter: Parameter): string[] {
  const schema = parameter.schema;
  const type = typeOf(schema);
  if (isDecimal(schema)) return badQueryIntegers;
  if (type === 'integer' || type === 'number')
    return type === 'integer' ? badQueryIntegers : ['abc', '1%00', '0x', 'Infinity'];
  if (schema.enum) return ['NOT_A_MEMBER', `${String(schema.enum[0])}%00`];
  if (type === 'string' && isDateName(parameter.name)) return badDates;
  if (type === 'string' && typeof schema.maxLength === 'number') return ['x'.repeat(schema.maxLength + 1)];
  return [];
}

function stringPropertyOrNew(
  operation: Operation,
  parts: Parts,
  change: (text: string) => string,
): fc.Arbitrary<Broken> {
  const strings = jsonProperties(operation).filter(
    ([, schema]) => typeOf(schema) === 'string' && !schema.enum,
  );
  const body = parts.body as Record<string, unknown>;
  if (strings.length === 0)
    return fc.constant({ payload: jsonPayload(withProperty(body, 'fuzzText', change('x'))) });
  return fc.constantFrom(...strings).map(([name]) => ({
    payload: jsonPayload(
      withProperty(body, name, change(typeof body?.[name] === 'string' ? (body[name] as string) : 'x')),
    ),
  }));
}

function wrongTypeFor(schema: JsonSchema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: true };
  }
}

function outOfRange(schema: JsonSchema, value: number): number {
  // A value the schema itself allows (version up to 2^53) is no defect: go past the schema's own bound.
  if (value > 0 && Number.isInteger(value) && schema.maximum !== undefined && value <= schema.maximum)
    return schema.maximum + 2;
  return value;
}

function multipartDefects(): { bytes: string | Buffer; contentType: string }[] {
  const boundary = 'fuzzboundary';
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  return [
    // Truncated: the part never ends, the closing boundary never comes.
    { bytes: Buffer.concat([Buffer.from(head), png]), contentType },
    { bytes: head.slice(0, 40), contentType },
    // No file at all, only a text field.
    {
      bytes: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      contentType,
    },
    // A "png" that is text.
    { bytes: `${head}not an image\r\n--${boundary}--\r\n`, contentType },
    // Multipart without a boundary, and JSON where a file belongs.
    { bytes: `${head}x\r\n--${boundary}--\r\n`, contentType: 'multipart/form-data' },
    { bytes: '{"upload":"x"}', contentType: 'application/json' },
    // A file name with NUL, and one whose bytes are not UTF-8 (issue 43: the input policy holds).
    { bytes: Buffer.concat([Buffer.from(head.replace('a.png', 'a\0.png')), png, closing]), contentType },
    {
      bytes: Buffer.concat([Buffer.from(head.replace('a.png', 'a\xff.png'), 'latin1'), png, closing]),
      contentType,
    },
  ];
}
