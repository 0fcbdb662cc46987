import type { ReviewListingResponse, ReviewTablesResponse, reviewListingQuerySchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';
import { reviewRowOf } from './review-cells.ts';
import {
  countListingRows,
  plainValuesOf,
  type ReviewListingFilter,
  readListingRows,
} from './review-listing-sql.ts';
import { findReviewTable, reviewTableOf, reviewTablesOf } from './review-tables.ts';

export type ReviewListingInput = z.output<typeof reviewListingQuerySchema>;

/** The listings a reader can open: every form's (and repeating group's) of the current definition. */
export async function listReviewTables(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<ReviewTablesResponse> {
  const reader = await readerScope(db, principal, studyId);
  return { tables: reader.definition ? reviewTablesOf(reader.definition) : [] };
}

/**
 * What a listing reads before its rows: the reader's scope (`subject.read`; a site role sees its
 * sites, a site filter outside them is 404), the table by name (404), the filter as SQL takes it.
 */
export async function listingContext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  tableName: string,
  query: Omit<ReviewListingInput, 'page' | 'size'>,
) {
  const reader = await readerScope(db, principal, studyId);
  if (!reader.definition) throw new AppError(404, 'not_found');
  const table = findReviewTable(reader.definition, tableName);
  const filter: ReviewListingFilter = {
    studyId,
    table,
    scope: narrowToSite(reader, query.siteId),
    visitKey: query.visitKey,
    review: query.review,
    search: query.search || undefined,
    sort: query.sort,
    dir: query.dir,
  };
  const siteCodes = new Map(reader.sites.map((site) => [site.id, site.code]));
  return { reader, definition: reader.definition, table, filter, siteCodes };
}

/**
 * A page of a review listing (issue 50 item 4): one statement for the page's rows and one for the
 * count, both filtered and sorted in SQL, then the page's plain values in one more.
 */
export async function listReviewListing(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  tableName: string,
  query: ReviewListingInput,
  language: Language,
): Promise<ReviewListingResponse> {
  const { reader, definition, table, filter, siteCodes } = await listingContext(
    db,
    principal,
    studyId,
    tableName,
    query,
  );
  const [rows, total] = await Promise.all([
    readListingRows(db, definition, filter, { limit: query.size, offset: (query.page - 1) * query.size }),
    countListingRows(db, filter),
  ]);
  const plain =
    table.groupKey === null
      ? await plainValuesOf(
          db,
          rows.map((row) => row.form_instance_id),
          table.columns.map((column) => column.item.key),
        )
      : new Map<number, Record<string, unknown>>();
  return {
    table: reviewTableOf(definition, table),
    columns: table.columns.map((column) => ({
      key: column.item.key,
      label: column.item.label,
      type: column.item.type,
    })),
    visits: definition.visits
      .filter((visit) => visit.forms.includes(table.formKey))
      .map((visit) => ({ key: visit.key, label: visit.label })),
    sites: reader.sites.map((site) => ({ id: site.id, code: site.code, name: site.name })),
    rows: rows.map((row) =>
      reviewRowOf(definition, table, row, plain.get(row.form_instance_id), siteCodes, language),
    ),
    mayReview: can(principal, 'review.mark', { studyId }),
    mayRaiseQueries: can(principal, 'query.open', { studyId }),
    total,
    page: query.page,
    size: query.size,
  };
}
