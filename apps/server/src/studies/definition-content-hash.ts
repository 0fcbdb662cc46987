import crypto from 'node:crypto';
import type { StudyDefinition } from '@cdms/study';

/** JSON with every object's keys in code-point order, arrays as they are: one text per value. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The SHA-256 (hex) of a definition's content, whatever order the uploaded document or the
 * database's JSON wrote its keys in (its canonical JSON: keys sorted). The audit trail records it at
 * publication and the download shows it, so a designer can tell two versions apart and match a
 * file to what was approved.
 */
export function definitionContentHash(definition: StudyDefinition): string {
  return jsonContentHash(definition);
}

/** The SHA-256 (hex) of any JSON value's canonical JSON: the same for the same content in any key order. */
export function jsonContentHash(value: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(value)).digest('hex');
}
