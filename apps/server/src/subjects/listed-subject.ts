/** The read model's columns that name a subject in a per-subject list row. */
export interface ListedSubjectColumns {
  subject_id: number;
  screening_number: string;
  randomization_number: string | null;
  site_id: number;
  site_code: string;
}

/**
 * The five fields a per-subject progress row opens with (the SDV progress and the readiness board),
 * so both lists name a subject the same way (`subjectId` is the screening number, `subjectPk` the row);
 * the contract declares them once, `listedSubjectShape`.
 */
export function presentListedSubject(row: ListedSubjectColumns) {
  return {
    subjectPk: row.subject_id,
    subjectId: row.screening_number,
    registrationNumber: row.randomization_number,
    siteId: row.site_id,
    site: row.site_code,
  };
}
