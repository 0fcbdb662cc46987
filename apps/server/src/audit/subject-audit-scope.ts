/**
 * Where a record about one subject is filed: its study, site and subject. The audit review filters
 * by them and the actor's role is read at that site, so every writer must name all three alike.
 */
export function subjectAuditScope(subject: { id: number; study_id: number; site_id: number }) {
  return { studyId: subject.study_id, siteId: subject.site_id, subjectId: subject.id };
}
