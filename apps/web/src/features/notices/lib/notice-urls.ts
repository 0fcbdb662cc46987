import { paths, studyPath } from '../../../lib/paths.ts';

/** `menu-type` (PI or CRA menu) travels with every link inside a study (prototype-spec §2). */
export const MENU_TYPE_PARAM = 'menu-type';
export const NOTICE_PK_PARAM = 'notice-pk';

export function noticeListUrl(studyId: number, menuType: string | null, listSearch = ''): string {
  if (listSearch)
    return `${studyPath(paths.notice, studyId)}${listSearch.startsWith('?') ? '' : '?'}${listSearch}`;
  return studyPath(paths.notice, studyId, { [MENU_TYPE_PARAM]: menuType ?? undefined });
}

export function noticeDetailUrl(studyId: number, noticeId: number, menuType: string | null): string {
  return studyPath(paths.noticeDetail, studyId, {
    [NOTICE_PK_PARAM]: String(noticeId),
    [MENU_TYPE_PARAM]: menuType ?? undefined,
  });
}

/** The register page; with a notice id it edits that notice. */
export function noticeRegisterUrl(studyId: number, menuType: string | null, noticeId?: number): string {
  return studyPath(paths.noticeRegister, studyId, {
    [NOTICE_PK_PARAM]: noticeId === undefined ? undefined : String(noticeId),
    [MENU_TYPE_PARAM]: menuType ?? undefined,
  });
}
