import type {
  CodingAssignment,
  CodingDictionariesResponse,
  CodingQueueResponse,
  CodingSearchResponse,
  CodingUpgradePreview,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type CodingFilters, codingQueryString } from '../lib/coding-filters.ts';

/** Medical coding's reads and writes (issue 51 item 2). */

const base = (studyId: number) => `/api/studies/${studyId}/coding`;

export function useCodingQueue(studyId: number, filters: CodingFilters, enabled: boolean) {
  return useQuery({
    queryKey: ['coding', studyId, 'queue', filters] as const,
    queryFn: () => apiRequest<CodingQueueResponse>(`${base(studyId)}/queue?${codingQueryString(filters)}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useCodingSearch(studyId: number, kind: 'meddra' | 'whodrug', text: string) {
  return useQuery({
    queryKey: ['coding', studyId, 'search', kind, text] as const,
    queryFn: () =>
      apiRequest<CodingSearchResponse>(
        `${base(studyId)}/search?${new URLSearchParams({ kind, q: text }).toString()}`,
      ),
    enabled: text.trim() !== '',
  });
}

export function useCodeAssignment(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; version: number; code: string }) =>
      apiRequest<CodingAssignment>(`${base(studyId)}/assignments/${input.id}/code`, {
        method: 'POST',
        body: { version: input.version, code: input.code },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['coding', studyId] }),
  });
}

export function useSendCodingQuery(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; version: number; text: string }) =>
      apiRequest<{ assignment: CodingAssignment; queryId: number }>(
        `${base(studyId)}/assignments/${input.id}/query`,
        { method: 'POST', body: { version: input.version, text: input.text } },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['coding', studyId] }),
  });
}

export function useCodingDictionaries(studyId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['coding', studyId, 'dictionaries'] as const,
    queryFn: () => apiRequest<CodingDictionariesResponse>(`${base(studyId)}/dictionaries`),
    enabled,
  });
}

export function useUploadDictionary(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: 'meddra' | 'whodrug' | 'synonyms'; version: string; file: File }) => {
      const formData = new FormData();
      formData.append('upload', input.file);
      const query = new URLSearchParams({ kind: input.kind });
      if (input.version.trim()) query.set('version', input.version.trim());
      return apiRequest<unknown>(`${base(studyId)}/dictionaries?${query.toString()}`, {
        method: 'POST',
        formData,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['coding', studyId] }),
  });
}

export function useUpgradePreview(studyId: number, dictionaryId: number | null) {
  return useQuery({
    queryKey: ['coding', studyId, 'upgrade', dictionaryId] as const,
    queryFn: () => apiRequest<CodingUpgradePreview>(`${base(studyId)}/dictionaries/${dictionaryId}/upgrade`),
    enabled: dictionaryId !== null,
  });
}

export function useApplyUpgrade(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dictionaryId: number) =>
      apiRequest<{ version: string; recoded: number; sentToQueue: number; autoCoded: number }>(
        `${base(studyId)}/dictionaries/${dictionaryId}/upgrade`,
        { method: 'POST' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['coding', studyId] }),
  });
}
