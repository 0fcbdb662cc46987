import type {
  BulkHoldRequest,
  BulkHoldResponse,
  HoldInForce,
  HoldKindValue,
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

/**
 * The change of `kind` a screen offers at `level` (the form's own toolbar, the subject's header): lift
 * the hold of that kind placed there, or place one — unless a hold of that kind, or a lock, already
 * holds it, where placing adds nothing. Null: offer nothing.
 */
export function holdChangeToOffer(
  holds: readonly Pick<HoldInForce, 'kind' | 'level'>[],
  level: HoldLevel,
  kind: HoldKindValue,
): 'lift' | 'place' | null {
  if (holds.some((hold) => hold.level === level && hold.kind === kind)) return 'lift';
  if (holds.some((hold) => hold.kind === kind || hold.kind === 'locked')) return null;
  return 'place';
}
