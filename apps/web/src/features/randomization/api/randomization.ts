import type {
  GenerateRandomizationRequest,
  RandomizationSettingsRequest,
  RandomizationStatus,
} from '@cdms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const statusKey = (studyId: number) => ['randomization', studyId, 'status'] as const;
const basePath = (studyId: number) => `/api/studies/${studyId}/randomization`;

/** Use of each site's allocation list and the group-visibility setting (never the groups themselves). */
export function useRandomizationStatus(studyId: number, enabled: boolean) {
  return useQuery({
    queryKey: statusKey(studyId),
    queryFn: () => apiRequest<RandomizationStatus>(basePath(studyId)),
    enabled,
    staleTime: 0,
  });
}

/** Every write answers with the new status: it replaces the cached one. */
function useStatusWrite<Input>(studyId: number, send: (input: Input) => Promise<RandomizationStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (status) => queryClient.setQueryData(statusKey(studyId), status),
  });
}

export function useGenerateLists(studyId: number) {
  return useStatusWrite(studyId, (request: GenerateRandomizationRequest) =>
    apiRequest<RandomizationStatus>(`${basePath(studyId)}/generate`, { method: 'POST', body: request }),
  );
}

export function useImportList(studyId: number) {
  return useStatusWrite(studyId, (csv: string) =>
    apiRequest<RandomizationStatus>(`${basePath(studyId)}/import`, { method: 'POST', body: { csv } }),
  );
}

export function useUpdateSettings(studyId: number) {
  return useStatusWrite(studyId, (settings: RandomizationSettingsRequest) =>
    apiRequest<RandomizationStatus>(`${basePath(studyId)}/settings`, { method: 'PUT', body: settings }),
  );
}
