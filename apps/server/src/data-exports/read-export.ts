import type { DataExport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { selectExports, toDataExport } from './export-view.ts';
import { requireExporter } from './require-exporter.ts';

/** `GET /api/studies/:studyId/data-exports/:exportId`: one export and its progress. */
export async function readExport(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  exportId: number,
): Promise<DataExport> {
  requireExporter(principal, studyId);
  const row = await selectExports(db, studyId).where('data_exports.id', '=', exportId).executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  return toDataExport(row);
}
