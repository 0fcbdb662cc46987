import type { SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { findSaeReportInScope } from './sae-access.ts';
import { presentSaeReport } from './sae-presenter.ts';

/** One report with every version, if the caller may read it (`sae.read` at its site; else 404). */
export async function readSaeReport(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  reportId: number,
): Promise<SaeReport> {
  const report = await findSaeReportInScope(db, principal, studyId, reportId);
  return presentSaeReport(db, principal, report);
}
