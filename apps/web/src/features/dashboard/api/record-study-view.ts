import { apiRequest } from '../../../lib/api-client.ts';

/** Tells the server the user opened this study's dashboard (the task list's recently viewed strip). */
export function recordStudyView(studyId: number): Promise<void> {
  return apiRequest<void>(`/api/studies/${studyId}/views`, { method: 'POST' });
}
