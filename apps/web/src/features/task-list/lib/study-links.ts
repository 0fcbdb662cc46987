import type { StudySummary } from '@cdms/contract';
import { paths, studyPath } from '../../../lib/paths.ts';

/** The dashboard opened with one of the user's approaches (spec §2: `/dashboard/{id}?type={approach}`). */
export function dashboardLink(
  study: Pick<StudySummary, 'id' | 'approaches'>,
  approach = study.approaches[0],
) {
  return studyPath(paths.dashboard, study.id, { type: approach });
}
