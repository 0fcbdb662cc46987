import { resolveVisit, type StudyDefinition } from '@cdms/study';

// The labels of a visit and a form as the reports and the notifications show them (the key when the
// definition has no such visit or form).

export function visitLabelOf(
  definition: StudyDefinition | null,
  visitKey: string,
): { ko: string; en: string } {
  const visit = definition ? resolveVisit(definition, visitKey) : undefined;
  return visit ? { ko: visit.label.ko, en: visit.label.en } : { ko: visitKey, en: visitKey };
}

export function formLabelOf(definition: StudyDefinition | null, formKey: string): { ko: string; en: string } {
  const form = definition?.forms.find((entry) => entry.key === formKey);
  return form ? { ko: form.label.ko, en: form.label.en } : { ko: formKey, en: formKey };
}
