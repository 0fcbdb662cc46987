import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * Whether the reader may know randomization groups: everyone while the study shows them (the
 * group-visibility setting), otherwise only the keepers of the allocation list. The one decision
 * behind the randomize answer and the summary's split by group.
 */
export function mayKnowGroup(principal: Principal, studyId: number, showGroup: boolean): boolean {
  return showGroup || can(principal, 'randomization.manage', { studyId });
}
