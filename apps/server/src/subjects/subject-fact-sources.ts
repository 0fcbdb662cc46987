// Its own file: the lab ranges read the demographics below the read model, which reads them all.
/** Where the facts live in the study's forms (visit key, form key, item key); lab ranges read the demographics too. */
export const SOURCES = {
  demographics: { visitKey: 'v1', formKey: 'demographicInfo', gender: 'gender', age: 'age' },
  adverseEvents: { visitKey: 'all', formKey: 'adverseEvent', rows: 'events', serious: 'serious' },
  endOfStudy: {
    visitKey: 'all',
    formKey: 'endExamination',
    screeningFailureReason: 'screeningFailureReason',
    dropoutReason: 'dropoutReason',
  },
} as const;
