/** Query keys of the subjects feature, one place so that writes invalidate the right reads. */
export const subjectKeys = {
  all: (studyId: number) => ['subjects', studyId] as const,
  list: (studyId: number) => ['subjects', studyId, 'list'] as const,
  subject: (studyId: number, subjectPk: number) => ['subjects', studyId, 'subject', subjectPk] as const,
  overview: (studyId: number, subjectPk: number) =>
    ['subjects', studyId, 'subject', subjectPk, 'overview'] as const,
  form: (studyId: number, subjectPk: number, visitKey: string, formKey: string) =>
    ['subjects', studyId, 'subject', subjectPk, 'form', visitKey, formKey] as const,
  /** A form's history, or one item's (`itemKey`). */
  audit: (studyId: number, subjectPk: number, visitKey: string, formKey: string, itemKey = '') =>
    ['subjects', studyId, 'subject', subjectPk, 'audit', visitKey, formKey, itemKey] as const,
};

export function subjectPath(studyId: number, subjectPk: number): string {
  return `/api/studies/${studyId}/subjects/${subjectPk}`;
}

export function formPath(studyId: number, subjectPk: number, visitKey: string, formKey: string): string {
  return `${subjectPath(studyId, subjectPk)}/forms/${encodeURIComponent(visitKey)}/${encodeURIComponent(formKey)}`;
}
