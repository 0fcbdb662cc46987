import {
  type DefinitionComparison,
  type DefinitionVersionList,
  definitionComparisonPath,
} from '@cdms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { studyDefinitionQueryKey } from '../../../lib/study-definition.ts';

/**
 * Every version of the study's definition, oldest first. Under the definition's key: a designer's
 * save or an import invalidates it, and the list shows the new version.
 */
export function useDefinitionVersions(studyId: number) {
  return useQuery({
    queryKey: [...studyDefinitionQueryKey(studyId), 'versions'],
    queryFn: () => apiRequest<DefinitionVersionList>(`/api/studies/${studyId}/definition-versions`),
  });
}

/**
 * The comparison of two versions in the page's language. Versions never change once written, so an
 * answer stays true; the previous comparison stays on screen while the next one loads.
 */
export function useDefinitionComparison(
  studyId: number,
  query: { from: string; to: string; lang: 'ko' | 'en' },
) {
  return useQuery({
    queryKey: ['studies', studyId, 'definition-comparison', query],
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
    queryFn: () => apiRequest<DefinitionComparison>(definitionComparisonPath(studyId, query, 'json')),
  });
}
