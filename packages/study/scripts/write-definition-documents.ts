// Writes the JSON Schema of study definitions into packages/study/definitions/ from the zod model (the
// study definitions there are documents written by hand). Run `npm run documents -w @cdms/study` after
// changing the model; src/studies/definition-documents.test.ts fails while the committed file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { definitionDocuments, documentText } from '../src/studies/definition-documents.ts';

const folder = path.resolve(import.meta.dirname, '../definitions');
fs.mkdirSync(folder, { recursive: true });
for (const [name, value] of Object.entries(definitionDocuments())) {
  const file = path.join(folder, name);
  const text = documentText(value);
  const shown = path.relative(process.cwd(), file);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) {
    console.log(`${shown}: unchanged`);
    continue;
  }
  fs.writeFileSync(file, text);
  console.log(`${shown}: written (${Buffer.byteLength(text)} bytes)`);
}
