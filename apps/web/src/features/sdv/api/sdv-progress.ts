import type {
  SdvNextResponse,
  SdvPlanRequest,
  SdvPlanResponse,
  SdvSitesResponse,
  SdvSubjectResponse,
  SdvSubjectsResponse,
  VerifyVisitResponse,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type SdvFilters, sdvSubjectsQueryString } from '../lib/sdv-filters.ts';

/** The SDV page's reads (issue 15). Marks move with every monitor's work: read fresh when shown. */

const sdvPath = (studyId: number) => `/api/studies/${studyId}/sdv`;

export const sdvKeys = {
  all: (studyId: number) => ['sdv', studyId] as const,
  sites: (studyId: number) => ['sdv', studyId, 'sites'] as const,
  subjects: (studyId: number, filters: SdvFilters) => ['sdv', studyId, 'subjects', filters] as const,
  subject: (studyId: number, subjectPk: number) => ['sdv', studyId, 'subject', subjectPk] as const,
  next: (studyId: number, siteId: number | null) => ['sdv', studyId, 'next', siteId] as const,
  plan: (studyId: number) => ['sdv', studyId, 'plan'] as const,
};

export function useSdvSites(studyId: number) {
  return useQuery({
    queryKey: sdvKeys.sites(studyId),
    queryFn: () => apiRequest<SdvSitesResponse>(`${sdvPath(studyId)}/sites`),
    staleTime: 0,
  });
}

export function useSdvSubjects(studyId: number, filters: SdvFilters) {
  // The unfolded subject is the page's, not the list's: changing it must not read the list again.
  const listFilters = { ...filters, open: null };
  return useQuery({
    queryKey: sdvKeys.subjects(studyId, listFilters),
    queryFn: () =>
      apiRequest<SdvSubjectsResponse>(`${sdvPath(studyId)}/subjects?${sdvSubjectsQueryString(listFilters)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One subject by visit and form, when it is unfolded. */
export function useSdvSubject(studyId: number, subjectPk: number | null) {
  return useQuery({
    queryKey: sdvKeys.subject(studyId, subjectPk ?? 0),
    queryFn: () => apiRequest<SdvSubjectResponse>(`${sdvPath(studyId)}/subjects/${subjectPk}`),
    enabled: subjectPk !== null,
    staleTime: 0,
  });
}

/** The monitor's next form to verify, in one site or all of theirs. */
export function useSdvNext(studyId: number, siteId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: sdvKeys.next(studyId, siteId),
    queryFn: () =>
      apiRequest<SdvNextResponse>(`${sdvPath(studyId)}/next${siteId === null ? '' : `?siteId=${siteId}`}`),
    enabled,
    staleTime: 0,
  });
}

export function useSdvPlan(studyId: number) {
  return useQuery({
    queryKey: sdvKeys.plan(studyId),
    queryFn: () => apiRequest<SdvPlanResponse>(`${sdvPath(studyId)}/plan`),
  });
}

/** DM and ADMIN change the plan; every figure is measured against it, so all of them are read again. */
export function useSaveSdvPlan(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: SdvPlanRequest) =>
      apiRequest<SdvPlanResponse>(`${sdvPath(studyId)}/plan`, { method: 'PUT', body: plan }),
    onSuccess: (plan) => {
      queryClient.setQueryData(sdvKeys.plan(studyId), plan);
      void queryClient.invalidateQueries({ queryKey: sdvKeys.all(studyId) });
      void queryClient.invalidateQueries({ queryKey: ['subjects', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['freezing', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['shell', 'subject-info', studyId] });
    },
  });
}

/**
 * A monitor verifies every unverified item of one visit's saved forms in the plan. Every figure that
 * counts marks is read again: this page's, the forms and overviews, the board, the subject-info popup.
 */
export function useVerifyVisit(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { subjectPk: number; visitKey: string }) =>
      apiRequest<VerifyVisitResponse>(`${sdvPath(studyId)}/verify-visit`, { method: 'POST', body: target }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: sdvKeys.all(studyId) });
      void queryClient.invalidateQueries({ queryKey: ['subjects', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['freezing', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['shell', 'subject-info', studyId] });
    },
  });
}
