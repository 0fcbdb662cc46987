import type { AuditChainStatus, AuditTrailResponse } from '@cdms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { type AuditFilters, auditQueryString } from '../lib/audit-filters.ts';

/** The audit page's reads (issue 16): the trail is appended to all the time, read fresh when shown. */

const auditPath = (studyId: number) => `/api/studies/${studyId}/audit`;

export function useAuditTrail(studyId: number, filters: AuditFilters) {
  return useQuery({
    queryKey: ['audit', studyId, 'trail', filters],
    queryFn: () => apiRequest<AuditTrailResponse>(`${auditPath(studyId)}?${auditQueryString(filters)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAuditChainStatus(studyId: number) {
  return useQuery({
    queryKey: ['audit', studyId, 'chain'],
    queryFn: () => apiRequest<AuditChainStatus>(`${auditPath(studyId)}/chain`),
    staleTime: 60_000,
  });
}

/** Downloads every record the filters select as CSV, in the user's language. */
export async function downloadAuditTrail(studyId: number, filters: AuditFilters): Promise<void> {
  await saveDownload(`/api/studies/${studyId}/audit.csv?${auditQueryString(filters, false)}`, 'audit.csv');
}
