import { type LabTestItems, type Language, numericLabTests, type StudyDefinition } from '@cdms/study';

/** The lab tests a range can be given for, named without the item's "result" suffix. */
export function labTestChoices(definition: StudyDefinition | undefined, language: Language) {
  return (definition ? numericLabTests(definition) : []).map((test: LabTestItems) => ({
    testKey: test.testKey,
    unit: test.unit,
    label: test.label[language].replace(/\s*(결과|result)$/i, ''),
  }));
}

export type LabTestChoice = ReturnType<typeof labTestChoices>[number];
