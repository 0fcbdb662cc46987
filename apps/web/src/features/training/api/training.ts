import type {
  TrainingListResponse,
  TrainingMatrixResponse,
  TrainingModuleDetail,
  TrainingModuleRequest,
  TrainingResult,
  TrainingSettings,
  TrainingStatus,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { meQueryKey } from '../../../lib/me.ts';

/** The training page's reads and writes (issue 18 item 5). Standings change with every completion: read fresh. */

const base = (studyId: number) => `/api/studies/${studyId}/training`;

export const trainingKeys = {
  all: (studyId: number) => ['training', studyId] as const,
  list: (studyId: number) => ['training', studyId, 'list'] as const,
  module: (studyId: number, moduleId: number) => ['training', studyId, 'module', moduleId] as const,
  matrix: (studyId: number, filters: MatrixFilters) => ['training', studyId, 'matrix', filters] as const,
};

export interface MatrixFilters {
  search: string;
  status: TrainingStatus | '';
  page: number;
  size: 10 | 20 | 50;
}

function matrixQueryString(filters: Omit<MatrixFilters, 'page' | 'size'> & Partial<MatrixFilters>): string {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.page) params.set('page', String(filters.page));
  if (filters.size) params.set('size', String(filters.size));
  return params.toString();
}

export function useTrainingList(studyId: number) {
  return useQuery({
    queryKey: trainingKeys.list(studyId),
    queryFn: () => apiRequest<TrainingListResponse>(base(studyId)),
    staleTime: 0,
  });
}

export function useTrainingModule(studyId: number, moduleId: number | null) {
  return useQuery({
    queryKey: trainingKeys.module(studyId, moduleId ?? 0),
    queryFn: () => apiRequest<TrainingModuleDetail>(`${base(studyId)}/modules/${moduleId}`),
    enabled: moduleId !== null,
    staleTime: 0,
  });
}

export function useTrainingMatrix(studyId: number, filters: MatrixFilters, enabled: boolean) {
  return useQuery({
    queryKey: trainingKeys.matrix(studyId, filters),
    queryFn: () =>
      apiRequest<TrainingMatrixResponse>(`${base(studyId)}/matrix?${matrixQueryString(filters)}`),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 0,
  });
}

function useInvalidating<Input, Output>(studyId: number, mutationFn: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    // The membership's `trainingPending` (`/api/auth/me`) changes with a completion, a new version or
    // the gate's setting: read again, so the subject pages' banner and save buttons follow at once.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: trainingKeys.all(studyId) }),
        client.invalidateQueries({ queryKey: meQueryKey }),
      ]),
  });
}

export function useSaveTrainingModule(studyId: number) {
  return useInvalidating(studyId, ({ id, request }: { id: number | null; request: TrainingModuleRequest }) =>
    apiRequest<TrainingModuleDetail>(
      id === null ? `${base(studyId)}/modules` : `${base(studyId)}/modules/${id}`,
      {
        method: id === null ? 'POST' : 'PUT',
        body: request,
      },
    ),
  );
}

export function useCompleteTraining(studyId: number) {
  return useInvalidating(studyId, (moduleId: number) =>
    apiRequest<TrainingResult>(`${base(studyId)}/modules/${moduleId}/complete`, { method: 'POST' }),
  );
}

export function useSubmitQuiz(studyId: number) {
  return useInvalidating(studyId, ({ moduleId, answers }: { moduleId: number; answers: number[] }) =>
    apiRequest<TrainingResult>(`${base(studyId)}/modules/${moduleId}/quiz`, {
      method: 'POST',
      body: { answers },
    }),
  );
}

export function useTrainingSettings(studyId: number) {
  return useInvalidating(studyId, (settings: TrainingSettings) =>
    apiRequest<TrainingSettings>(`${base(studyId)}/settings`, { method: 'PUT', body: settings }),
  );
}

export function downloadCertificate(studyId: number, moduleId: number, language: 'ko' | 'en') {
  return saveDownload(
    `${base(studyId)}/modules/${moduleId}/certificate.pdf?lang=${language}`,
    `training_${moduleId}.pdf`,
  );
}

/** One person's certificate of every module completed: the reader's own (`userId` null) or a member's (managers). */
export function downloadRecord(studyId: number, userId: number | null, language: 'ko' | 'en') {
  const path = userId === null ? 'certificate.pdf' : `members/${userId}/certificate.pdf`;
  return saveDownload(`${base(studyId)}/${path}?lang=${language}`, `training_record_${userId ?? 'mine'}.pdf`);
}

export function downloadMatrix(studyId: number, filters: MatrixFilters) {
  const query = matrixQueryString({ search: filters.search, status: filters.status });
  return saveDownload(`${base(studyId)}/matrix/download${query ? `?${query}` : ''}`, 'training_matrix.csv');
}
