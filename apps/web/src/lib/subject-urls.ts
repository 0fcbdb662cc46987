import type { SubjectSummary } from '@cdms/contract';
import { paths, studyPath } from './paths.ts';

// Query parameters of the subject pages (prototype-spec §2 "Subject overview", "Subject detail"),
// for every feature that links to a subject: in lib/, so they do not import the subjects feature.
export const MENU_TYPE_PARAM = 'menu-type';
export const SUBJECT_ID_PARAM = 'subject-id';
export const REGISTRATION_NUMBER_PARAM = 'registration-number';
export const SUBJECT_PK_PARAM = 'subject-pk';
/** The visit key (consentScreening, v1…v6, all). */
export const VISIT_PARAM = 'depth-1';
/** The form key. */
export const FORM_PARAM = 'depth-2';

/**
 * A positive whole number from a route or query parameter (an id as the API takes it, int4), or null:
 * the page shows not-found. Here, not in `paths.ts`, which the first load carries.
 */
export function readId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** A subject as the URLs name it; the registration (randomization) number once there is one. */
type SubjectRef = Pick<SubjectSummary, 'id' | 'subjectId'> & { registrationNumber?: string | null };

function subjectQuery(subject: SubjectRef, menuType: string | null) {
  return {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    [SUBJECT_ID_PARAM]: subject.subjectId,
    // No registration (randomization) number before V2; the parameter is left out until there is one.
    [REGISTRATION_NUMBER_PARAM]: subject.registrationNumber ?? undefined,
    [SUBJECT_PK_PARAM]: String(subject.id),
  };
}

export function subjectListUrl(studyId: number, menuType: string | null): string {
  return studyPath(paths.subjectList, studyId, { [MENU_TYPE_PARAM]: menuType ?? undefined });
}

export function overviewUrl(studyId: number, subject: SubjectRef, menuType: string | null): string {
  return studyPath(paths.subjectOverview, studyId, subjectQuery(subject, menuType));
}

export function detailUrl(
  studyId: number,
  subject: SubjectRef,
  visitKey: string,
  formKey: string,
  menuType: string | null,
  /** The item's path the form page scrolls to. */
  item?: string,
): string {
  return studyPath(paths.subjectDetail, studyId, {
    ...subjectQuery(subject, menuType),
    [VISIT_PARAM]: visitKey,
    [FORM_PARAM]: formKey,
    item,
  });
}
