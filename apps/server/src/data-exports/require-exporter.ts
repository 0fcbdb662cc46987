import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../http/errors.ts';

/** Every export route: a study the caller belongs to (else 404), as DM or ADMIN (else 403). */
/** The 403 of `requireExporter`, as the export routes list it. */
export const EXPORTER_REFUSAL = 'The role may not export data (DM and ADMIN may) (`forbidden`).';

export function requireExporter(principal: Principal, studyId: number): void {
  if (!principal.studies.has(studyId)) throw new AppError(404, 'not_found');
  if (!can(principal, 'data.export', { studyId })) throw new AppError(403, 'forbidden');
}
