import type { LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';

/** The laboratory form of a study (spec §2 labTest): its numeric tests can carry a site's normal ranges. */
export const LAB_FORM_KEY = 'labTest';
/** Where the labTest form keeps the date its results belong to (the range in force on it applies). */
export const LAB_SPECIMEN_DATE_ITEM = 'specimenDate';

export interface LabTestItems {
  /** `wbc`, `ast`…: the result is `<testKey>Result`, the judgement `<testKey>Normal`, NCS/CS `<testKey>Significance`. */
  testKey: string;
  label: LocalizedText;
  unit: string | null;
  resultItem: string;
  normalItem: string;
  significanceItem: string;
}

/**
 * The numeric tests of the study's labTest form, in form order: decimal `<key>Result` items (urine
 * dipstick results are text and have no range). Empty for a study without the form.
 */
export function numericLabTests(definition: StudyDefinition): LabTestItems[] {
  const form = definition.forms.find((f) => f.key === LAB_FORM_KEY);
  if (!form) return [];
  const tests: LabTestItems[] = [];
  for (const section of form.sections) {
    for (const item of section.items) {
      if (item.type !== 'decimal' || !item.key.endsWith('Result')) continue;
      const testKey = item.key.slice(0, -'Result'.length);
      tests.push({
        testKey,
        label: item.label,
        unit: item.unit ?? null,
        resultItem: item.key,
        normalItem: `${testKey}Normal`,
        significanceItem: `${testKey}Significance`,
      });
    }
  }
  return tests;
}
