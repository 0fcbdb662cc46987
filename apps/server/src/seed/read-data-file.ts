import fs from 'node:fs';
import { z } from 'zod';

/**
 * A JSON data file of the seed (the demo's subject plans, its queries) checked against its schema:
 * the seed code gets typed data, and a mistyped key or value fails at once with the file and the
 * place in it, rather than as a strange demo later.
 */
export function readDataFile<Schema extends z.ZodType>(file: string, schema: Schema): z.infer<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not readable JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new Error(`${file} does not hold what the seed expects:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
