import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../http/errors.ts';
import { canWriteNotices } from '../notices/notices.ts';

/**
 * Guidelines are written by those who write notices (product.md: "write notices, guidelines, task
 * notices" — CRA, DM, ADMIN; the action `notice.write`) and read by every member of the study.
 */
export function canWriteGuidelines(principal: Principal, studyId: number): boolean {
  return principal.studies.has(studyId) && canWriteNotices(principal, studyId);
}

/** Outside the study the study does not exist (404). */
export function requireStudyMember(principal: Principal, studyId: number): void {
  authorize(principal, 'member', { studyId });
}

export function requireGuidelineWriter(principal: Principal, studyId: number): void {
  requireStudyMember(principal, studyId);
  if (!canWriteGuidelines(principal, studyId)) throw new AppError(403, 'forbidden');
}
