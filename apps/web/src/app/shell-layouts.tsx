import type { MenuType, StudyMembership } from '@cdms/contract';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useOutletContext, useParams, useSearchParams } from 'react-router';
import { useAuth } from '../features/auth/components/auth-provider.tsx';
import { NoticeStrip } from '../features/notices/components/notice-strip.tsx';
import { HeaderSearch } from '../features/shell/components/header-search.tsx';
import { SideMenu } from '../features/shell/components/side-menu.tsx';
import { StudyInDesignBanner } from '../features/shell/components/study-in-design-banner.tsx';
import { StudyUnavailable } from '../features/shell/components/study-unavailable.tsx';
import { SubjectInfoPopup } from '../features/shell/components/subject-info-popup.tsx';
import {
  chooseMenuType,
  heldMenuTypes,
  MENU_TYPE_PARAM,
  studyMenu,
  TYPE_PARAM,
  taskListMenu,
} from '../features/shell/lib/menu.ts';
import { studyTitleIn } from '../lib/me.ts';
import { paths, studyPath } from '../lib/paths.ts';
import { readId } from '../lib/subject-urls.ts';
import { AppHeader } from './app-header.tsx';
import styles from './app-layout.module.css';

function ShellFrame({ menu, header, children }: { menu: ReactNode; header: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.shell}>
      {menu}
      <div className={styles.main}>
        {header}
        <main className={styles.content}>{children}</main>
      </div>
    </div>
  );
}

/**
 * The task lists and help pages: the reduced menu (task list, ended tasks). The header search only
 * on the two lists, which it filters (spec §2).
 */
export function TaskListLayout() {
  const { pathname } = useLocation();
  const entries = useMemo(() => taskListMenu(), []);
  const searchable = pathname === paths.taskList || pathname === paths.taskEndList;
  return (
    <ShellFrame
      menu={<SideMenu entries={entries} />}
      header={<AppHeader withSideMenu actions={searchable ? <HeaderSearch key={pathname} /> : null} />}
    >
      <Outlet />
    </ShellFrame>
  );
}

export interface StudyOutletContext {
  membership: StudyMembership;
  menuType: MenuType;
}

/** The study and menu set of the study page being shown (inside `StudyLayout`). */
export function useStudyOutlet(): StudyOutletContext {
  return useOutletContext<StudyOutletContext>();
}

/**
 * Every study page (`/dashboard/:studyId`, …): the study's menu, chosen from the user's roles in it
 * (`type` / `menu-type` only where the user holds that set), the study dropdown, the subject-info
 * popup. A study the user is not a member of gets the not-found page, whatever the reason.
 */
export function StudyLayout() {
  const { studyId: rawId } = useParams();
  const { me } = useAuth();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  const studyId = readId(rawId);
  const memberships = me?.memberships ?? [];
  const membership = memberships.find((candidate) => candidate.studyId === studyId);
  const menuType = membership ? chooseMenuType(membership.roles, params) : null;
  const entries = useMemo(
    () =>
      studyId !== null && menuType
        ? studyMenu(menuType, studyId, membership?.abilities, membership?.designRoles)
        : taskListMenu(),
    [studyId, menuType, membership?.abilities, membership?.designRoles],
  );

  if (!membership || !menuType || studyId === null) {
    return (
      <ShellFrame menu={<SideMenu entries={entries} />} header={<AppHeader withSideMenu />}>
        <StudyUnavailable />
      </ShellFrame>
    );
  }

  const context: StudyOutletContext = { membership, menuType };
  return (
    <ShellFrame
      menu={
        <SideMenu
          entries={entries}
          study={{
            options: memberships.map((item) => ({
              id: item.studyId,
              code: item.studyCode,
              title: studyTitleIn(item, i18n.language),
            })),
            currentId: studyId,
            onSelect: (id) => void navigate(studyPath(paths.dashboard, id)),
          }}
          menuTypes={{
            held: heldMenuTypes(membership.roles),
            current: menuType,
            onChange: (type) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                next.delete(TYPE_PARAM);
                next.set(MENU_TYPE_PARAM, type);
                return next;
              }),
          }}
        />
      }
      header={
        <AppHeader
          withSideMenu
          lead={<NoticeStrip studyId={studyId} />}
          popups={<SubjectInfoPopup membership={membership} />}
        />
      }
    >
      {membership.studyStatus === 'design' && <StudyInDesignBanner />}
      <Outlet context={context} />
    </ShellFrame>
  );
}
