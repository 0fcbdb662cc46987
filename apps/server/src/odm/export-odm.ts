import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type AmendmentChain, loadAmendmentChain } from '../studies/amendment-chain.ts';
import { type ExportScope, type ExportSubject, exportBatches } from './load-export-batch.ts';
import { loadExportHeader } from './load-export-header.ts';
import { buildOdmMetadata } from './odm-metadata.ts';
import { subjectAsOfCurrent, valueMoverFrom } from './subject-as-of-current.ts';
import { writeOdm20 } from './write-odm-20.ts';
import { writeOdm132 } from './write-odm-132.ts';

/**
 * A study's data as a CDISC ODM document (1.3.2 or 2.0), streamed: the caller consumes `chunks`
 * (to a file, a response) and reads `counts` once they are done. Subjects are read in batches of
 * `batchSize` (keyset on their id), so memory stays flat whatever the trial's size.
 */

export const ODM_VERSIONS = ['1.3.2', '2.0'] as const;
export type OdmVersion = (typeof ODM_VERSIONS)[number];

export const DEFAULT_EXPORT_BATCH_SIZE = 150;

export interface ExportOdmOptions extends ExportScope {
  version: OdmVersion;
  /** An AuditRecord on every value (who, where, when, why it was last changed). */
  audit: boolean;
  /** Leave out every value of the items the study definition flags as personal data. */
  maskPersonalData?: boolean;
  batchSize?: number;
  /** Fixed for reproducible tests; the current time otherwise. */
  createdAt?: Date;
}

export interface OdmExport {
  chunks: AsyncIterable<string>;
  /**
   * Filled while `chunks` is consumed. `values` counts ItemData written (a repeating group's row
   * gives several), what countOdmValues gives in advance (an export job's progress total).
   */
  counts: { subjects: number; values: number; queries: number };
  studyCode: string;
  fileOid: string;
}

export async function exportOdm(db: Kysely<Database>, options: ExportOdmOptions): Promise<OdmExport> {
  const scope: ExportScope = {
    studyId: options.studyId,
    ...(options.siteIds !== undefined ? { siteIds: options.siteIds } : {}),
    ...(options.statuses !== undefined ? { statuses: options.statuses } : {}),
    ...(options.formKeys !== undefined ? { formKeys: options.formKeys } : {}),
  };
  // Queries travel only in ODM 2.0 (1.3.2 has no element for them).
  const withQueries = options.version === '2.0';
  const header = await loadExportHeader(db, scope, { audit: options.audit, queries: withQueries });
  const metadata = buildOdmMetadata(header.definition, {
    code: header.study.code,
    version: header.definitionVersion,
  });
  const counts = { subjects: 0, values: 0, queries: 0 };
  const fileOid = `ODM.${header.study.code}.${randomUUID()}`;
  // A subject still on an earlier version is written in the metadata's terms (subject-as-of-current.ts).
  const chain = await loadAmendmentChain(db, scope.studyId, header.definitionVersion);
  const input = {
    header,
    metadata,
    batches: asOfCurrent(
      exportBatches(db, scope, {
        limit: options.batchSize ?? DEFAULT_EXPORT_BATCH_SIZE,
        audit: options.audit,
        queries: withQueries,
      }),
      chain,
    ),
    withAudit: options.audit,
    maskPersonalData: options.maskPersonalData ?? false,
    fileOid,
    createdAt: options.createdAt ?? new Date(),
    onSubject: (subject: { valueCount: number; queryCount?: number }) => {
      counts.subjects += 1;
      counts.values += subject.valueCount;
      counts.queries += subject.queryCount ?? 0;
    },
  };
  const chunks = options.version === '1.3.2' ? writeOdm132(input) : writeOdm20(input);
  return { chunks, counts, studyCode: header.study.code, fileOid };
}

async function* asOfCurrent(
  batches: AsyncIterable<ExportSubject[]>,
  chain: AmendmentChain,
): AsyncGenerator<ExportSubject[]> {
  for await (const batch of batches)
    yield batch.map((subject) => {
      const move = valueMoverFrom(chain, subject.definitionVersion);
      return move ? subjectAsOfCurrent(subject, move) : subject;
    });
}
