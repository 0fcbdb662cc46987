// Writes packages/study/definitions/ from the TypeScript sources: TMP-2026's definition document and the
// JSON Schema of study definitions. Run `npm run documents -w @cdms/study` after changing the study or
// the model; src/studies/definition-documents.test.ts fails while the committed files are stale.
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
