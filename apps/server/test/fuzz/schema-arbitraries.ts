import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.ts';

/**
 * A fast-check arbitrary of values that a JSON schema (as the OpenAPI document has it) accepts, as
 * far as a schema can say: the server may still refuse them for reasons of its own (an unknown item,
 * a date in the future). The fuzz suite starts from such a value and then breaks it on purpose, so
 * the one defect it adds is the reason the request must be refused.
 */
export function valueMatching(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((member) => valueMatching(member, depth + 1)));
  if (schema.allOf?.length) return valueMatching(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: lowerBound(schema, 1), max: upperBound(schema, 1000) });
    case 'number':
      return fc.double({ min: lowerBound(schema, 0), max: upperBound(schema, 1000), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueMatching(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 100 }), fc.boolean());
  }
}

/** Property names whose strings are calendar dates in the contract (the OpenAPI type says only "string"). */
export function isDateName(name: string): boolean {
  return /date$/i.test(name) || name === 'start' || name === 'end';
}

function stringOf(schema: JsonSchema, name = ''): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === 'date' || isDateName(name))
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2026-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  if (schema.format === 'email') return fc.stringMatching(/^[a-z]{1,8}@[a-z]{1,8}\.test$/);
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 20, 20));
  // Printable ASCII: the base value itself must not carry a defect of its own.
  return fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength,
    maxLength,
  });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    model[name] =
      type === 'string' && !property.enum ? stringOf(property, name) : valueMatching(property, depth + 1);
  }
  if (Object.keys(model).length === 0) return fc.constant({});
  return fc.record(model, { requiredKeys: [...required].filter((key) => key in model) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

function lowerBound(schema: JsonSchema, fallback: number): number {
  const minimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : schema.minimum;
  if (minimum === undefined) return fallback;
  return schema.exclusiveMinimum === true ? minimum + 1 : minimum;
}

function upperBound(schema: JsonSchema, fallback: number): number {
  const maximum = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : schema.maximum;
  return Math.min(maximum ?? fallback, Math.max(fallback, lowerBound(schema, 0) + fallback));
}
