import type { SiteRequest, SiteSummary } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export interface SaveSiteInput {
  studyId: number;
  /** Absent: add a new site; present: edit that site. */
  siteId?: number;
  site: SiteRequest;
}

export function saveSite({ studyId, siteId, site }: SaveSiteInput): Promise<SiteSummary> {
  return siteId === undefined
    ? apiRequest<SiteSummary>(`/api/admin/studies/${studyId}/sites`, { method: 'POST', body: site })
    : apiRequest<SiteSummary>(`/api/admin/studies/${studyId}/sites/${siteId}`, { method: 'PUT', body: site });
}

export function useSaveSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.studies }),
  });
}
