import type { DataExportsResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { selectExports, toDataExport } from './export-view.ts';
import { requireExporter } from './require-exporter.ts';

/** `GET /api/studies/:studyId/data-exports`: the study's exports, newest first, paged in SQL. */
export async function listExports(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: { page: number; size: number },
): Promise<DataExportsResponse> {
  requireExporter(principal, studyId);
  const { page, size } = query;
  const [rows, total] = await Promise.all([
    selectExports(db, studyId)
      .orderBy('data_exports.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    db
      .selectFrom('data_exports')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('study_id', '=', studyId)
      .executeTakeFirstOrThrow(),
  ]);
  return { exports: rows.map(toDataExport), total: Number(total.count), page, size };
}
