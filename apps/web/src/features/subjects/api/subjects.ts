import type {
  AddUnscheduledVisitRequest,
  AuditEntry,
  CreateSubjectRequest,
  DeleteSubjectRequest,
  DeleteUnscheduledVisitRequest,
  OverviewResponse,
  SubjectListResponse,
  SubjectSummary,
  UnscheduledVisit,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { type SubjectListFilters, subjectListQueryString } from '../lib/subject-list-filters.ts';
import { subjectKeys, subjectPath } from './subject-query-keys.ts';

const listPath = (studyId: number) => `/api/studies/${studyId}/subjects`;

/** One page of the subject list: filtered, sorted, every column from the server. */
export function useSubjectList(studyId: number, filters: SubjectListFilters) {
  return useQuery({
    queryKey: [...subjectKeys.list(studyId), 'page', filters],
    queryFn: () => apiRequest<SubjectListResponse>(`${listPath(studyId)}?${subjectListQueryString(filters)}`),
    placeholderData: keepPreviousData,
  });
}

/** A subject as the subject pages' side list shows it. */
export interface SubjectChoice {
  id: number;
  subjectId: string;
  registrationNumber: string | null;
  initials: string;
  siteCode: string;
}

/** The largest page the list API gives (prototype-spec §9). */
const LARGEST_PAGE = 100;

/**
 * Every subject of the user's sites, by screening number (the overview's side list). The list API
 * pages by 100 at most, so the remaining pages are asked for together after the first.
 */
export function useSubjects(studyId: number) {
  return useQuery({
    queryKey: [...subjectKeys.list(studyId), 'all'],
    queryFn: async (): Promise<SubjectChoice[]> => {
      const page = (number: number) =>
        apiRequest<SubjectListResponse>(`${listPath(studyId)}?size=${LARGEST_PAGE}&page=${number}`);
      const first = await page(1);
      const pages = Math.ceil(first.total / LARGEST_PAGE);
      const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page(i + 2)));
      return [first, ...rest]
        .flatMap((response) => response.subjects)
        .map((row) => ({
          id: row.pk,
          subjectId: row.subjectId,
          registrationNumber: row.registrationNumber,
          initials: row.initials,
          siteCode: row.site,
        }));
    },
  });
}

export function useCreateSubject(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateSubjectRequest) =>
      apiRequest<SubjectSummary>(listPath(studyId), { method: 'POST', body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subjectKeys.list(studyId) }),
  });
}

/** The visit × form status matrix of one subject. */
export function useSubjectOverview(studyId: number, subjectPk: number | null) {
  return useQuery({
    queryKey: subjectKeys.overview(studyId, subjectPk ?? 0),
    queryFn: () => apiRequest<OverviewResponse>(`${subjectPath(studyId, subjectPk ?? 0)}/overview`),
    enabled: subjectPk !== null,
  });
}

/** Deletes a subject registered in error; the server refuses one with data (409 subject_has_data). */
export function useDeleteSubject(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ subjectPk, request }: { subjectPk: number; request: DeleteSubjectRequest }) =>
      apiRequest<void>(subjectPath(studyId, subjectPk), { method: 'DELETE', body: request }),
    onSuccess: (_, { subjectPk }) => {
      queryClient.removeQueries({ queryKey: subjectKeys.subject(studyId, subjectPk) });
      return queryClient.invalidateQueries({ queryKey: subjectKeys.list(studyId) });
    },
  });
}

/** Everything the audit trail holds about one subject, newest first (the list's edit history). */
export function useSubjectHistory(studyId: number, subjectPk: number | null) {
  return useQuery({
    queryKey: [...subjectKeys.subject(studyId, subjectPk ?? 0), 'history'],
    queryFn: async () =>
      (await apiRequest<{ entries: AuditEntry[] }>(`${subjectPath(studyId, subjectPk ?? 0)}/audit`)).entries,
    enabled: subjectPk !== null,
    // The trail grows with every save: read it fresh each time the history opens.
    staleTime: 0,
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/** The file name the server gives in Content-Disposition (RFC 5987 form first). */
/**
 * Downloads the filtered list as CSV or XLSX (DM, ADMIN), in the user's language (the headers
 * and labels follow it); a refusal carries the server's message as an `ApiError`.
 */
export async function downloadSubjectList(
  studyId: number,
  filters: SubjectListFilters,
  format: ExportFormat,
): Promise<void> {
  const url = `${listPath(studyId)}/export?format=${format}&${subjectListQueryString(filters, false)}`;
  await saveDownload(url, `subjects.${format}`);
}

/**
 * Adding and deleting an unscheduled visit (issue 19 item 1); afterwards the subject's overview, list
 * row and forms are read again.
 */
export function useUnscheduledVisitChange(studyId: number, subjectPk: number) {
  const queryClient = useQueryClient();
  const base = `${subjectPath(studyId, subjectPk)}/unscheduled-visits`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: subjectKeys.subject(studyId, subjectPk) });
  const add = useMutation({
    mutationFn: (request: AddUnscheduledVisitRequest) =>
      apiRequest<UnscheduledVisit>(base, { method: 'POST', body: request }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: ({ repeatKey, ...request }: DeleteUnscheduledVisitRequest & { repeatKey: number }) =>
      apiRequest<null>(`${base}/${repeatKey}`, { method: 'DELETE', body: request }),
    onSuccess: refresh,
  });
  return { add, remove };
}
