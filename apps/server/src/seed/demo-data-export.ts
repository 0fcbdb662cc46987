import type { Kysely } from 'kysely';
import { claimExport } from '../data-exports/claim-export.ts';
import { runExport } from '../data-exports/run-export.ts';
import { startExport } from '../data-exports/start-export.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';

/**
 * The living demo's data out (issue 16): the data manager has exported the whole study as CDISC ODM
 * 1.3.2 with its audit trail, and as per-form tables in one XLSX workbook with Korean value labels,
 * through the same start, claim and run the server's export runner uses, so /data shows both kinds
 * of finished export to download at first look. A third, CSV tables with personal data masked (issue
 * 47), shows a de-identified export: the initials and birth dates the definition flags are left blank.
 * A fourth, CSV tables as entered (issue 49), gives site 02's vital signs with the result codes its
 * sites entered before AM-01 re-coded them; the others give every subject in the current version's codes.
 */
export async function seedDemoDataExport(
  db: Kysely<Database>,
  input: { studyId: number; dataManager: string },
): Promise<void> {
  const dataManager = await personByEmail(db, input.dataManager);
  for (const request of [
    { format: 'odm-1.3.2', scope: {}, auditTrail: true },
    { format: 'tables-xlsx', scope: {}, auditTrail: false, labels: 'ko' },
    { format: 'tables-csv', scope: {}, auditTrail: false, maskPersonalData: true },
    { format: 'tables-csv', scope: {}, auditTrail: false, labels: 'ko', valuesAsOf: 'entered' },
  ] as const) {
    await startExport(db, dataManager.principal, dataManager.actor, input.studyId, request);
    const job = await claimExport(db);
    if (job) await runExport(db, job);
  }
}
