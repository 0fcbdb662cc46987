import { paths, studyPath } from '../../../lib/paths.ts';

export const MENU_TYPE_PARAM = 'menu-type';
export const GUIDELINE_PK_PARAM = 'guideline-pk';

export function guidelineListUrl(studyId: number, menuType: string | null): string {
  return studyPath(paths.guideline, studyId, { [MENU_TYPE_PARAM]: menuType ?? undefined });
}

export function guidelineDetailUrl(studyId: number, guidelineId: number, menuType: string | null): string {
  return studyPath(paths.guidelineDetail, studyId, {
    [GUIDELINE_PK_PARAM]: String(guidelineId),
    [MENU_TYPE_PARAM]: menuType ?? undefined,
  });
}

/** The register page; with a guideline id it edits that draft. */
export function guidelineRegisterUrl(studyId: number, menuType: string | null, guidelineId?: number): string {
  return studyPath(paths.guidelineRegister, studyId, {
    [GUIDELINE_PK_PARAM]: guidelineId === undefined ? undefined : String(guidelineId),
    [MENU_TYPE_PARAM]: menuType ?? undefined,
  });
}
