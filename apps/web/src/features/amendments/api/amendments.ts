import type {
  AmendmentImpactResponse,
  AmendmentImpactRowsResponse,
  AmendmentListResponse,
  AmendmentMigrationsResponse,
  AmendmentResponse,
  ChangeAmendmentRequest,
  OpenAmendmentRequest,
  PublishAmendmentRequest,
  StartMigrationRequest,
  StartMigrationResponse,
  SubjectListResponse,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type ImpactFilters, impactRowsQueryString } from '../lib/impact-filters.ts';

const basePath = (studyId: number) => `/api/studies/${studyId}/amendments`;

/**
 * The list and every amendment sit under one key: a write reads the list and the amendment again
 * (a new number, a status, the change set after a declaration) with one invalidation.
 */
const amendmentsKey = (studyId: number) => ['studies', studyId, 'amendments'] as const;

/** The study's amendments, newest first. */
export function useAmendments(studyId: number) {
  return useQuery({
    queryKey: amendmentsKey(studyId),
    queryFn: () => apiRequest<AmendmentListResponse>(basePath(studyId)),
  });
}

/**
 * One amendment with its change set in the page's language, read again whenever the page opens or
 * regains focus: the draft changes in the designer (another tab, another person), and the change set
 * must be the one the server computes now.
 */
export function useAmendment(studyId: number, amendmentId: number, lang: 'ko' | 'en') {
  return useQuery({
    queryKey: [...amendmentsKey(studyId), amendmentId, lang],
    staleTime: 0,
    queryFn: () => apiRequest<AmendmentResponse>(`${basePath(studyId)}/${amendmentId}?lang=${lang}`),
  });
}

/** Reads the list and the amendments again after a write; the mutation resolves once they are read. */
function useAmendmentWrite<Body, Answer>(studyId: number, send: (body: Body) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: amendmentsKey(studyId) }),
  });
}

/** `POST …/amendments`: 201 with the new amendment's id. */
export function useOpenAmendment(studyId: number) {
  return useAmendmentWrite(studyId, (body: OpenAmendmentRequest) =>
    apiRequest<{ id: number }>(basePath(studyId), { method: 'POST', body }),
  );
}

/** `PUT …/amendments/:id`: the fields and the whole set of declarations (a declaration left out is gone). */
export function useChangeAmendment(studyId: number, amendmentId: number) {
  return useAmendmentWrite(studyId, (body: ChangeAmendmentRequest) =>
    apiRequest<{ id: number }>(`${basePath(studyId)}/${amendmentId}`, { method: 'PUT', body }),
  );
}

/**
 * `POST …/amendments/:id/discard` with the reason. The reads are not awaited: the page leaves for the
 * list at once, and the discarded amendment's page must not replace the dialog while it closes.
 */
export function useDiscardAmendment(studyId: number, amendmentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      apiRequest<{ id: number }>(`${basePath(studyId)}/${amendmentId}/discard`, {
        method: 'POST',
        body: { reason },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: amendmentsKey(studyId) }),
  });
}

/** The change set and the last impact analysis as a PDF to file, in `language` (a download link's address). */
export function amendmentImpactPdfPath(studyId: number, amendmentId: number, language: 'ko' | 'en'): string {
  return `${basePath(studyId)}/${amendmentId}/impact.pdf?lang=${language}`;
}

/**
 * The last impact analysis's counts (`GET …/:id/impact`; null: none yet). Under the amendments' key:
 * a declaration or a field saved reads it again, and `current` says whether it still fits the draft.
 */
export function useAmendmentImpact(studyId: number, amendmentId: number) {
  return useQuery({
    queryKey: [...amendmentsKey(studyId), amendmentId, 'impact'],
    staleTime: 0,
    queryFn: () => apiRequest<AmendmentImpactResponse>(`${basePath(studyId)}/${amendmentId}/impact`),
  });
}

/**
 * One page of the last analysis's rows (`GET …/:id/impact/rows`) under the page's filters; the
 * previous page stays on screen while the next one loads.
 */
export function useAmendmentImpactRows(studyId: number, amendmentId: number, filters: ImpactFilters) {
  return useQuery({
    queryKey: [...amendmentsKey(studyId), amendmentId, 'impact', 'rows', filters],
    enabled: filters.kind !== '',
    placeholderData: keepPreviousData,
    queryFn: () =>
      apiRequest<AmendmentImpactRowsResponse>(
        `${basePath(studyId)}/${amendmentId}/impact/rows?${impactRowsQueryString(filters)}`,
      ),
  });
}

/**
 * `POST …/:id/impact`: runs the analysis again (synchronously, seconds on a big study); resolves once
 * the counts and rows are read again. 409 `amendment_not_ready` while the change set is not ready.
 */
export function useRunAmendmentImpact(studyId: number, amendmentId: number) {
  return useAmendmentWrite(studyId, () =>
    apiRequest<AmendmentImpactResponse>(`${basePath(studyId)}/${amendmentId}/impact`, { method: 'POST' }),
  );
}

/**
 * `POST …/:id/publish` with the designer's e-signature (password, and the code with two-factor
 * sign-in): the amendment published. The reads are not awaited: the dialog closes at once, and the
 * page becomes the published amendment's once they are in. 409 `amendment_not_ready`,
 * `amendment_impact_stale`; 422 `signature_password_incorrect`, `signature_code_required`; 429.
 */
export function usePublishAmendment(studyId: number, amendmentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishAmendmentRequest) =>
      apiRequest<AmendmentResponse>(`${basePath(studyId)}/${amendmentId}/publish`, { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: amendmentsKey(studyId) }),
  });
}

/** How often the migrations are read while a job is queued or running. */
export const MIGRATION_POLL_MS = 2000;

const migrationsKey = (studyId: number, amendmentId: number) =>
  [...amendmentsKey(studyId), amendmentId, 'migrations'] as const;

/**
 * A published amendment's migration jobs and the study's subjects by version
 * (`GET …/:id/migrations`), read again every 2 s while a job is queued or running, not otherwise.
 */
export function useAmendmentMigrations(studyId: number, amendmentId: number) {
  return useQuery({
    queryKey: migrationsKey(studyId, amendmentId),
    staleTime: 0,
    queryFn: () => apiRequest<AmendmentMigrationsResponse>(`${basePath(studyId)}/${amendmentId}/migrations`),
    refetchInterval: (query) =>
      query.state.data?.migrations.some((migration) => migration.status !== 'done')
        ? MIGRATION_POLL_MS
        : false,
  });
}

/**
 * `POST …/:id/migrations`: a job for the study, a site or a subject; resolves once the jobs are read
 * again (the new one queued, so the reading goes on every 2 s). 409 `amendment_not_published`,
 * `migration_running` (a job of the same scope queued or running).
 */
export function useStartMigration(studyId: number, amendmentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartMigrationRequest) =>
      apiRequest<StartMigrationResponse>(`${basePath(studyId)}/${amendmentId}/migrations`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: migrationsKey(studyId, amendmentId) }),
  });
}

/**
 * The subject whose screening number is `screeningNumber` (case-insensitive), through the subject
 * list's search (`GET /api/studies/:studyId/subjects?search=`, which also matches parts of numbers,
 * initials and sites: only the exact number counts); null when the study has none.
 */
export async function findSubjectByNumber(
  studyId: number,
  screeningNumber: string,
): Promise<{ pk: number; subjectId: string } | null> {
  const wanted = screeningNumber.trim().toUpperCase();
  const params = new URLSearchParams({ search: wanted, page: '1', size: '100' });
  const list = await apiRequest<SubjectListResponse>(`/api/studies/${studyId}/subjects?${params}`);
  const found = list.subjects.find((row) => row.subjectId.toUpperCase() === wanted);
  return found ? { pk: found.pk, subjectId: found.subjectId } : null;
}
