import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import {
  ExportScopeError,
  findSiteByRef,
  findStudyByRef,
  writePartialFile,
} from '../export-files/export-to-file.ts';
import { exportOdm, type OdmVersion } from './export-odm.ts';

/**
 * `export-odm`: a study's ODM document streamed into a file, then audited. The text goes to
 * `<out>.partial` first and is renamed once complete and audited, so a failed export never leaves
 * a file that looks whole; the audit record (who, which study and scope, the version, how many
 * subjects, values and queries) is written when the data have actually been written out.
 */

export interface ExportOdmToFileInput {
  /** The study's id, or its code. */
  study: string;
  /** A site's code or institution number; every site when absent. */
  site?: string;
  out: string;
  version: OdmVersion;
  audit: boolean;
  batchSize?: number;
}

export { ExportScopeError };

export async function exportOdmToFile(db: Kysely<Database>, actor: AuditActor, input: ExportOdmToFileInput) {
  const study = await findStudyByRef(db, input.study);
  const siteId = input.site === undefined ? undefined : await findSiteByRef(db, study, input.site);

  const exported = await exportOdm(db, {
    studyId: study.id,
    ...(siteId !== undefined ? { siteIds: [siteId] } : {}),
    version: input.version,
    audit: input.audit,
    ...(input.batchSize !== undefined ? { batchSize: input.batchSize } : {}),
  });
  const partial = await writePartialFile(exported.chunks, input.out);
  await recordAudit(db, actor, {
    type: 'odm.exported',
    entityType: 'study',
    entityId: study.id,
    studyId: study.id,
    siteId: siteId ?? null,
    after: {
      format: `ODM ${input.version}`,
      fileOid: exported.fileOid,
      file: input.out,
      withAudit: input.audit,
      subjects: exported.counts.subjects,
      values: exported.counts.values,
      queries: exported.counts.queries,
    },
  });
  fs.renameSync(partial, input.out);
  return { studyCode: study.code, fileOid: exported.fileOid, ...exported.counts };
}
