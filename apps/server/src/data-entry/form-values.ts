import type { FormValues, SubjectData } from '@cdms/study';

/** One form's values in a subject's data (none: an empty form). */
export function formValues(data: SubjectData, visitKey: string, formKey: string): FormValues {
  return (data[visitKey]?.[formKey] ?? {}) as FormValues;
}
