import { paths, studyPath } from '../../../lib/paths.ts';

/** The query parameter naming the signal whose detail is open on the monitoring page. */
export const SIGNAL_PARAM = 'signal';
export const MENU_TYPE_PARAM = 'menu-type';

/** `/monitoring/:studyId`, keeping the menu type, optionally with a signal's detail open. */
export function monitoringUrl(studyId: number, menuType: string | null, signalId?: number): string {
  return studyPath(paths.monitoring, studyId, {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    [SIGNAL_PARAM]: signalId === undefined ? undefined : String(signalId),
  });
}
