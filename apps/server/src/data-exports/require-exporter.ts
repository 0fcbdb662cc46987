import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';

/** Every export route: a study the caller belongs to (else 404), as DM or ADMIN (else 403). */
/** The 403 of `requireExporter`, as the export routes list it. */
export const EXPORTER_REFUSAL = 'The role may not export data (DM and ADMIN may) (`forbidden`).';

export function requireExporter(principal: Principal, studyId: number): void {
  authorize(principal, 'data.export', { studyId });
}
