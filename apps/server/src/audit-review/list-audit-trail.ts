import type { AuditTrailResponse, auditTrailQuerySchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { auditEventTypes } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { auditEventLabels } from './audit-event-labels.ts';
import {
  auditReviewContext,
  countAuditEvents,
  definitionForRows,
  filteredAuditEvents,
  presentAuditEvent,
} from './audit-trail-query.ts';

/** One page of the study's audit trail: filtered, ordered by record (= time), counted and paged in SQL. */
export async function listAuditTrail(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  request: z.output<typeof auditTrailQuerySchema>,
): Promise<AuditTrailResponse> {
  const { page, size, ...filter } = request;
  const context = await auditReviewContext(db, principal, studyId);
  const base = filteredAuditEvents(db, context, filter);
  const [rows, total] = await Promise.all([
    base
      .orderBy('audit_events.id', filter.sort === 'oldest' ? 'asc' : 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    countAuditEvents(base),
  ]);
  const definition = await definitionForRows(db, studyId, rows);
  return {
    records: rows.map((row) => presentAuditEvent(row, definition)),
    total,
    page,
    size,
    eventTypes: auditEventTypes.map((type) => ({ type, label: auditEventLabels[type] })),
    sites: context.sites,
  };
}
