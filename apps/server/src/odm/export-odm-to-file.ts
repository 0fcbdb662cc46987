import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
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

export class ExportScopeError extends Error {}

export async function exportOdmToFile(db: Kysely<Database>, actor: AuditActor, input: ExportOdmToFileInput) {
  const byId = /^[1-9]\d{0,9}$/.test(input.study) ? Number(input.study) : undefined;
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code'])
    .where((eb) =>
      byId !== undefined
        ? eb.or([eb('id', '=', byId), eb('code', '=', input.study)])
        : eb('code', '=', input.study),
    )
    .executeTakeFirst();
  if (!study) throw new ExportScopeError(`There is no study ${input.study}.`);
  let siteId: number | undefined;
  if (input.site !== undefined) {
    const siteRef = input.site;
    const site = await db
      .selectFrom('sites')
      .select('id')
      .where('study_id', '=', study.id)
      .where((eb) =>
        eb.or([eb('code', '=', siteRef), eb('institution_number', '=', siteRef.padStart(2, '0'))]),
      )
      .executeTakeFirst();
    if (!site) throw new ExportScopeError(`Study ${study.code} has no site ${input.site}.`);
    siteId = site.id;
  }

  const exported = await exportOdm(db, {
    studyId: study.id,
    ...(siteId !== undefined ? { siteIds: [siteId] } : {}),
    version: input.version,
    audit: input.audit,
    ...(input.batchSize !== undefined ? { batchSize: input.batchSize } : {}),
  });
  const partial = `${input.out}.partial`;
  try {
    await pipeline(Readable.from(exported.chunks), fs.createWriteStream(partial, { encoding: 'utf8' }));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
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
