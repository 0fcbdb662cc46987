import { type DataExport, isTableFormat, type StartDataExportRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { type StoredExportOptions, selectExports, toDataExport } from './export-view.ts';
import { requireExporter } from './require-exporter.ts';

/**
 * `POST /api/studies/:studyId/data-exports` (DM, ADMIN): queue an export. The scope is checked
 * against the study (its sites, its definition's forms) so a job never starts on names that match
 * nothing; the job row and its audit record are written in one transaction. A runner picks it up.
 */
export async function startExport(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: StartDataExportRequest,
): Promise<DataExport> {
  requireExporter(principal, studyId);
  const { scope } = request;
  // Refused rather than ignored: ODM carries its code lists itself, and a choice the data manager
  // made that silently does nothing would be a surprise in the file.
  if (request.labels !== undefined && !isTableFormat(request.format))
    throw new AppError(422, 'data_export_labels_not_for_format');
  if (request.valuesAsOf === 'entered' && !isTableFormat(request.format))
    throw new AppError(422, 'data_export_as_entered_not_for_format');
  const unknownSiteIds: number[] = [];
  if (scope.siteIds !== undefined) {
    const known = new Set(
      (
        await db
          .selectFrom('sites')
          .select('id')
          .where('study_id', '=', studyId)
          .where('id', 'in', scope.siteIds)
          .execute()
      ).map((row) => row.id),
    );
    unknownSiteIds.push(...scope.siteIds.filter((id) => !known.has(id)));
  }
  const unknownFormKeys: string[] = [];
  if (scope.formKeys !== undefined) {
    const definition = await currentStudyDefinition(db, studyId);
    const known = new Set(definition?.definition.forms.map((form) => form.key) ?? []);
    unknownFormKeys.push(...scope.formKeys.filter((key) => !known.has(key)));
  }
  if (unknownSiteIds.length > 0 || unknownFormKeys.length > 0) {
    throw new AppError(
      422,
      'data_export_unknown_scope',
      {},
      {
        siteIds: unknownSiteIds,
        formKeys: unknownFormKeys,
      },
    );
  }

  const options: StoredExportOptions = {
    // Each list once, in a stable order: the audit and the list show what was asked, plainly.
    scope: {
      ...(scope.siteIds ? { siteIds: [...new Set(scope.siteIds)].sort((a, b) => a - b) } : {}),
      ...(scope.statuses ? { statuses: [...new Set(scope.statuses)] } : {}),
      ...(scope.formKeys ? { formKeys: [...new Set(scope.formKeys)] } : {}),
    },
    auditTrail: request.auditTrail,
    ...(request.labels ? { labels: request.labels } : {}),
    valuesAsOf: request.valuesAsOf ?? 'current',
  };
  // Which items are personal is the study definition's to say (`personalData`), read when the job runs.
  const maskPersonalData = request.maskPersonalData === true;
  const id = await inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('data_exports')
      .values({
        study_id: studyId,
        requested_by: principal.user.id,
        format: request.format,
        options: JSON.stringify(options),
        mask_personal_data: maskPersonalData,
        state: 'queued',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'data_export.started',
      entityType: 'data_export',
      entityId: row.id,
      studyId,
      after: { format: request.format, ...options, maskPersonalData },
    });
    return row.id;
  });
  return toDataExport(
    await selectExports(db, studyId).where('data_exports.id', '=', id).executeTakeFirstOrThrow(),
  );
}
