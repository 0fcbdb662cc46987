import type {
  BulkHoldRequest,
  BulkHoldResponse,
  HoldInForce,
  HoldLevel,
  LiftedHold,
  PlaceHoldRequest,
} from '@cdms/contract';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * Freezes and locks (issue 15) for every screen that places or lifts them: the form (its own hold),
 * the subject overview (the subject's) and the readiness board (selected subjects, a site, the
 * study). Shared here because the subjects and freezing features may not import each other.
 */

export const holdsPath = (studyId: number) => `/api/studies/${studyId}/holds`;

/**
 * After a hold changes, everything that shows holds or is gated by them may have moved: forms
 * (banner, abilities), overviews (cell marks), subject list, the readiness board and the SDV pages.
 * Their keys are named literally: they belong to features this module may not import.
 */
export function invalidateHoldViews(queryClient: QueryClient, studyId: number): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['subjects', studyId] }),
    queryClient.invalidateQueries({ queryKey: ['freezing', studyId] }),
    queryClient.invalidateQueries({ queryKey: ['sdv', studyId] }),
  ]);
}

export type HoldChange =
  | { action: 'place'; request: PlaceHoldRequest }
  | { action: 'lift'; request: PlaceHoldRequest }
  | { action: 'bulk'; request: BulkHoldRequest };

/** Freeze, lock, unfreeze or unlock: one target, or selected subjects at once (all or nothing). */
export function useHoldChange(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: HoldChange): Promise<HoldInForce | LiftedHold | BulkHoldResponse> => {
      const path =
        change.action === 'place'
          ? holdsPath(studyId)
          : change.action === 'lift'
            ? `${holdsPath(studyId)}/lift`
            : `${holdsPath(studyId)}/bulk`;
      return apiRequest(path, { method: 'POST', body: change.request });
    },
    onSettled: () => invalidateHoldViews(queryClient, studyId),
  });
}

const LEVEL_WIDTH: Record<HoldLevel, number> = { study: 4, site: 3, subject: 2, form: 1 };

/**
 * The hold to name first, as the server names it in a refusal: a lock before a freeze, a wider level
 * before a narrower one (the hold that must be lifted first). Null without any.
 */
export function strongestHold<T extends Pick<HoldInForce, 'kind' | 'level'>>(holds: readonly T[]): T | null {
  let strongest: T | null = null;
  for (const hold of holds) {
    if (
      !strongest ||
      Number(hold.kind === 'locked') - Number(strongest.kind === 'locked') > 0 ||
      (hold.kind === strongest.kind && LEVEL_WIDTH[hold.level] > LEVEL_WIDTH[strongest.level])
    ) {
      strongest = hold;
    }
  }
  return strongest;
}
