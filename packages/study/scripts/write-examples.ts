// Writes the ODM metadata and workbook examples of docs/examples/ from its REDCap dictionary, so that
// the three files a newcomer tries describe the same small hearing study (issue 47 item 9). Run
// `npm run examples -w @cdms/study` after changing the dictionary or a converter;
// src/convert/examples.test.ts fails while a committed example is stale.
import fs from 'node:fs';
import path from 'node:path';
import { exampleFiles } from '../src/convert/example-files.ts';

const folder = path.resolve(import.meta.dirname, '../../../docs/examples');
const dictionary = fs.readFileSync(path.join(folder, 'redcap-dictionary.csv'), 'utf8');
const eventMapping = fs.readFileSync(path.join(folder, 'redcap-event-mapping.csv'), 'utf8');
for (const [name, content] of Object.entries(exampleFiles(dictionary, eventMapping))) {
  const file = path.join(folder, name);
  fs.writeFileSync(file, content);
  console.log(`${path.relative(process.cwd(), file)}: written (${Buffer.byteLength(content)} bytes)`);
}
