import { type Action, type MenuType, menuTypeOfRole, type Role } from '@cdms/contract';
import { paths, studyPath } from '../../../lib/paths.ts';

export type MenuIcon =
  | 'dashboard'
  | 'monitoring'
  | 'safety'
  | 'subjects'
  | 'notice'
  | 'guideline'
  | 'alarmLog'
  | 'training'
  | 'query'
  | 'report'
  | 'sdv'
  | 'review'
  | 'freezing'
  | 'summary'
  | 'lab'
  | 'data'
  | 'randomization'
  | 'audit'
  | 'design'
  | 'taskList'
  | 'taskEndList';

export interface MenuLink {
  /** i18n key under `shell:menu.` and a stable id for tests. */
  key: string;
  to: string;
}

export interface MenuEntry extends MenuLink {
  icon: MenuIcon;
  /** Submenus; the entry itself then only opens and closes them. */
  children?: readonly MenuLink[];
}

/** The query parameters that pick the menu set (spec §2): `type` wins over `menu-type`. */
export const MENU_TYPE_PARAM = 'menu-type';
export const TYPE_PARAM = 'type';

/** The menu sets the user's roles in a study give them, PI first (product.md "Who uses it"). */
export function heldMenuTypes(roles: readonly Role[]): MenuType[] {
  const held = new Set(roles.map((role) => menuTypeOfRole[role]));
  return (['PI', 'CRA'] as const).filter((type) => held.has(type));
}

/**
 * The menu set to show. A `type` or `menu-type` parameter is respected only when the user holds that
 * set, so a PI who edits the URL to `type=CRA` still sees the PI menu (the server refuses the CRA
 * pages' data anyway; the menu must not pretend otherwise). Null when the user holds no role.
 */
export function chooseMenuType(roles: readonly Role[], params: URLSearchParams): MenuType | null {
  const held = heldMenuTypes(roles);
  for (const requested of [params.get(TYPE_PARAM), params.get(MENU_TYPE_PARAM)]) {
    const match = held.find((type) => type === requested);
    if (match) return match;
  }
  return held[0] ?? null;
}

/**
 * The study menu of spec §2; links keep the menu type so that a user holding both stays in it. Every
 * reader of the study (`subject.read`) has central monitoring after the dashboard (issue 50). The
 * CRA set gains the randomization page for the users whose abilities include managing the lists, and
 * has the lab page only when the study's design has a lab panel (`designRoles`, issue 45). The study's
 * designers (DM, ADMIN: the `study.design` ability) get the designer last, in either set (issue 48).
 */
export function studyMenu(
  menuType: MenuType,
  studyId: number,
  abilities: readonly Action[] = [],
  designRoles: readonly string[] = [],
): MenuEntry[] {
  const link = (pattern: string) => studyPath(pattern, studyId, { [MENU_TYPE_PARAM]: menuType });
  const both: MenuEntry[] = [
    {
      key: 'dashboard',
      icon: 'dashboard',
      to: link(paths.dashboard),
      children: [
        { key: 'dashboardHome', to: link(paths.dashboard) },
        { key: 'taskAlarm', to: link(paths.taskAlarm) },
      ],
    },
    // Central monitoring (issue 50) for every reader of the study: sites see their own indicators.
    ...(abilities.includes('subject.read')
      ? [{ key: 'monitoring', icon: 'monitoring', to: link(paths.monitoring) } as const]
      : []),
    // SAE reports (issue 51) for those who handle them (`sae.read`): the site, its monitor, DM, the safety desk.
    ...(abilities.includes('sae.read')
      ? [{ key: 'safety', icon: 'safety', to: link(paths.safety) } as const]
      : []),
    { key: 'subjectList', icon: 'subjects', to: link(paths.subjectList) },
    { key: 'notice', icon: 'notice', to: link(paths.notice) },
    { key: 'guideline', icon: 'guideline', to: link(paths.guideline) },
  ];
  const design: MenuEntry[] = abilities.includes('study.design')
    ? [{ key: 'design', icon: 'design', to: link(paths.design) }]
    : [];
  if (menuType === 'PI') return [...both, ...design];
  return [
    ...both,
    { key: 'alarmLog', icon: 'alarmLog', to: link(paths.alarmLog) },
    { key: 'systemETraining', icon: 'training', to: link(paths.systemETraining) },
    { key: 'query', icon: 'query', to: link(paths.query) },
    { key: 'report', icon: 'report', to: link(paths.report) },
    { key: 'sdv', icon: 'sdv', to: link(paths.sdv) },
    // Review listings for those who review (issue 50 item 4: the `review.mark` ability, CRA and DM).
    ...(abilities.includes('review.mark')
      ? [{ key: 'reviewListings', icon: 'review', to: link(paths.reviewListings) } as const]
      : []),
    // Medical coding for the coder and the keepers of its dictionaries (issue 51: CODER, ADMIN).
    ...(abilities.includes('coding.code') || abilities.includes('coding.dictionaries')
      ? [{ key: 'coding', icon: 'review', to: link(paths.coding) } as const]
      : []),
    { key: 'freezing', icon: 'freezing', to: link(paths.freezing) },
    { key: 'summary', icon: 'summary', to: link(paths.summary) },
    ...(designRoles.includes('labPanel') ? [{ key: 'lab', icon: 'lab', to: link(paths.lab) } as const] : []),
    { key: 'data', icon: 'data', to: link(paths.data) },
    // The CRA set is held only through CRA, DM or ADMIN: exactly the audit trail's reviewers.
    { key: 'auditTrail', icon: 'audit', to: link(paths.audit) },
    ...(abilities.includes('randomization.manage')
      ? [{ key: 'randomization', icon: 'randomization', to: link(paths.randomization) } as const]
      : []),
    ...design,
  ];
}

/** The reduced menu of the task-list pages (spec §2). */
export function taskListMenu(): MenuEntry[] {
  return [
    { key: 'taskList', icon: 'taskList', to: paths.taskList },
    { key: 'taskEndList', icon: 'taskEndList', to: paths.taskEndList },
  ];
}

/**
 * Whether a menu link points at the page being shown (path only: query parameters do not count), or
 * at the page a sub-page belongs to (a design's version comparison under the design).
 */
export function isCurrentLink(to: string, pathname: string): boolean {
  const path = to.split('?')[0] ?? '';
  return path === pathname || pathname.startsWith(`${path}/`);
}
