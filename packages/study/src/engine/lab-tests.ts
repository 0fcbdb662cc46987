import type { LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';

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
 * The numeric tests of the study's lab form (its `labPanel` role), in form order: decimal `<key>Result`
 * items (urine dipstick results are text and have no range). Empty for a study without the role.
 */
export function numericLabTests(definition: StudyDefinition): LabTestItems[] {
  const labForm = definition.roles?.labPanel?.form;
  const form = definition.forms.find((f) => f.key === labForm);
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
