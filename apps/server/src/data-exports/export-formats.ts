import type { DataExportFormat, DataExportValuesAsOf } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  countFormTableValues,
  type FormTablesWriter,
  formTablesCsvZip,
  formTablesXlsx,
} from '../form-tables/index.ts';
import { countOdmValues } from '../odm/count-odm-values.ts';
import { exportOdm } from '../odm/export-odm.ts';
import type { ExportScope } from '../odm/load-export-batch.ts';

/**
 * The formats an export job can produce, one entry each. A format counts the item values it will
 * write (one COUNT, for the progress bar's total) and streams its bytes, reporting how many values
 * (and, when it knows, subjects) are done as it goes. The runner neither knows nor cares what the
 * bytes are.
 */

export interface ExportProgress {
  values: number;
  subjects?: number;
}

export interface ExportJobInput {
  scope: ExportScope;
  /** ODM only: the tables hold current values, so they have no audit trail to add. */
  auditTrail: boolean;
  /** Table formats only (start-export refuses it with ODM): a label column per coded item. */
  labels: 'ko' | 'en' | null;
  /** Every format: withhold the values of the items the study definition flags as personal data. */
  maskPersonalData: boolean;
  /** The version the values are given in (start-export lets only the table formats ask for `entered`). */
  valuesAsOf: DataExportValuesAsOf;
}

export interface ExportFormat {
  extension: string;
  contentType: string;
  /** The values `produce` will report for the same scope and masking (the progress total). */
  countValues(
    db: Kysely<Database>,
    scope: ExportScope,
    options: { maskPersonalData: boolean; valuesAsOf: DataExportValuesAsOf },
  ): Promise<number>;
  produce(
    db: Kysely<Database>,
    input: ExportJobInput,
    onProgress: (done: ExportProgress) => void,
  ): AsyncIterable<Uint8Array | string>;
}

function odmFormat(version: '1.3.2' | '2.0'): ExportFormat {
  return {
    extension: 'xml',
    contentType: 'application/xml; charset=utf-8',
    countValues: countOdmValues,
    async *produce(db, input, onProgress) {
      const exported = await exportOdm(db, {
        ...input.scope,
        version,
        audit: input.auditTrail,
        maskPersonalData: input.maskPersonalData,
      });
      for await (const chunk of exported.chunks) {
        yield chunk;
        // The file's values (ItemData) written so far: countOdmValues counts the same in advance.
        onProgress({ values: exported.counts.values, subjects: exported.counts.subjects });
      }
    },
  };
}

/**
 * The per-form tables (form-tables/). ExportScope and FormTablesScope are the same shape (study,
 * sites, the contract's lower-case statuses, form keys), so the scope passes through as it is.
 * Progress is in stored values, and countFormTableValues is the matching total.
 */
function tablesFormat(extension: string, contentType: string, produceTables: FormTablesWriter): ExportFormat {
  return {
    extension,
    contentType,
    countValues: countFormTableValues,
    produce: (db, input, onProgress) =>
      produceTables(
        db,
        {
          scope: input.scope,
          labels: input.labels,
          maskPersonalData: input.maskPersonalData,
          valuesAsOf: input.valuesAsOf,
        },
        (done) => onProgress({ values: done.values }),
      ),
  };
}

export const exportFormats: Record<DataExportFormat, ExportFormat> = {
  'odm-1.3.2': odmFormat('1.3.2'),
  'odm-2.0': odmFormat('2.0'),
  'tables-csv': tablesFormat('zip', 'application/zip', formTablesCsvZip),
  'tables-xlsx': tablesFormat(
    'xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    formTablesXlsx,
  ),
};
