import { DEFINITION_SHEETS, STUDY_FIELDS, STUDY_SHEET } from './workbook-layout.ts';
import { readmeSheet, sheetOf } from './write-definition-workbook.ts';
import { writeXlsx } from './xlsx-package.ts';

/**
 * The blank workbook a user downloads to design a study in: every sheet with its header, the Study
 * sheet with its field names waiting for values, and the README with the instructions in Korean and
 * English.
 */
export function writeDefinitionWorkbookTemplate(): Uint8Array {
  return writeXlsx([
    readmeSheet(),
    ...DEFINITION_SHEETS.map((spec) =>
      sheetOf(spec, spec === STUDY_SHEET ? STUDY_FIELDS.map((field) => ({ field: field.en })) : []),
    ),
  ]);
}
