import type { MenuType } from '@cdms/contract';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { toggled } from '../../../lib/toggled.ts';
import { isCurrentLink, type MenuEntry, type MenuLink } from '../lib/menu.ts';
import { MenuIcon } from './menu-icon.tsx';
import styles from './side-menu.module.css';

/** Below this viewport width the menu folds itself (the page needs the room); the user may unfold it. */
const NARROW_QUERY = '(max-width: 1099.98px)';

/** The user's choice, remembered apart for wide and narrow screens (narrow starts folded). */
const COLLAPSED_STORAGE_KEYS = { wide: 'cdms.sideMenu.collapsed', narrow: 'cdms.sideMenu.collapsedNarrow' };
type WidthClass = keyof typeof COLLAPSED_STORAGE_KEYS;

function storedCollapsed(width: WidthClass): boolean {
  try {
    const stored = window.localStorage.getItem(COLLAPSED_STORAGE_KEYS[width]);
    return stored === null ? width === 'narrow' : stored === '1';
  } catch {
    return width === 'narrow';
  }
}

// On every resize: React re-renders only when the width class (a string) changes.
function subscribeToWidth(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

function useWidthClass(): WidthClass {
  return useSyncExternalStore(
    subscribeToWidth,
    () => (window.matchMedia(NARROW_QUERY).matches ? 'narrow' : 'wide'),
    () => 'wide',
  );
}

export interface StudyOption {
  id: number;
  code: string;
  title: string;
}

interface SideMenuProps {
  entries: readonly MenuEntry[];
  /** Study pages: the study dropdown (navigates to the chosen study's dashboard). */
  study?: { options: readonly StudyOption[]; currentId: number; onSelect: (studyId: number) => void };
  /** Study pages of a user holding both menu sets: the PI/CRA toggle. */
  menuTypes?: { held: readonly MenuType[]; current: MenuType; onChange: (type: MenuType) => void };
}

/**
 * The side menu of spec §2: 240px expanded, 91px folded. Folded, each entry shows its label and
 * submenus in a flyout on hover or keyboard focus; folding closes every expanded submenu. Below
 * 1100px of window width it starts folded; the user's fold or unfold is remembered per width class.
 */
export function SideMenu({ entries, study, menuTypes }: SideMenuProps) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const width = useWidthClass();
  const [choice, setChoice] = useState(() => ({
    wide: storedCollapsed('wide'),
    narrow: storedCollapsed('narrow'),
  }));
  const collapsed = choice[width];
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const onTaskListPage = pathname === paths.taskList || pathname === paths.taskEndList;

  // Folding, by the user or by a narrower window, closes every expanded submenu; unfolded, the group
  // holding the page being shown opens by itself.
  useEffect(() => {
    if (collapsed) {
      setExpanded((current) => (current.size === 0 ? current : new Set()));
      return;
    }
    const group = entries.find((entry) => entry.children?.some((child) => isCurrentLink(child.to, pathname)));
    if (group)
      setExpanded((current) => (current.has(group.key) ? current : new Set([...current, group.key])));
  }, [collapsed, entries, pathname]);

  const toggleCollapsed = () => {
    const next = !collapsed;
    setChoice((current) => ({ ...current, [width]: next }));
    try {
      window.localStorage.setItem(COLLAPSED_STORAGE_KEYS[width], next ? '1' : '0');
    } catch {
      // Not remembered; the menu still folds.
    }
  };

  const toggleGroup = (key: string) => setExpanded((current) => toggled(current, key));

  return (
    <aside className={`${styles.menu} ${collapsed ? styles.collapsed : ''}`} data-collapsed={collapsed}>
      <div className={styles.top}>
        <Link to={paths.taskList} className={styles.logo} aria-label={t('menu.logo')}>
          {/* Drawn, not a letter: the link's visible text stays "CDMS", which its name begins with. */}
          <svg className={styles.logoMark} viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="8" />
            <path d="M21 11.2a7 7 0 1 0 0 9.6" />
          </svg>
          <span className={styles.logoText}>CDMS</span>
        </Link>
        <button
          type="button"
          className={styles.foldButton}
          onClick={toggleCollapsed}
          aria-expanded={!collapsed}
          aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
          title={collapsed ? t('menu.expand') : t('menu.collapse')}
        >
          <MenuIcon name="fold" className={styles.foldIcon} />
        </button>
      </div>

      {study ? (
        <div className={styles.studyArea}>
          {onTaskListPage ? null : (
            <Link to={paths.taskList} className={styles.taskListButton} title={t('menu.toTaskList')}>
              <MenuIcon name="taskListButton" className={styles.icon} />
              <span className={styles.label}>{t('menu.toTaskList')}</span>
            </Link>
          )}
          {study && !collapsed ? (
            <label className={styles.studySelect}>
              <span className={styles.fieldLabel}>{t('menu.study')}</span>
              <select
                value={study.currentId}
                onChange={(event) => study.onSelect(Number(event.target.value))}
                title={study.options.find((option) => option.id === study.currentId)?.title}
              >
                {study.options.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.code} · {option.title}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {menuTypes && menuTypes.held.length > 1 ? (
            <fieldset className={styles.menuTypes} aria-label={t('menu.menuType')}>
              {menuTypes.held.map((type) => (
                <button
                  key={type}
                  type="button"
                  aria-pressed={menuTypes.current === type}
                  onClick={() => menuTypes.onChange(type)}
                >
                  {type}
                </button>
              ))}
            </fieldset>
          ) : null}
        </div>
      ) : null}

      <nav className={styles.nav} aria-label={t('menu.label')}>
        <ul className={styles.list}>
          {entries.map((entry) => {
            const label = t(`menu.${entry.key}`);
            const children = entry.children;
            const current = children
              ? children.some((child) => isCurrentLink(child.to, pathname))
              : isCurrentLink(entry.to, pathname);
            const open = !collapsed && expanded.has(entry.key);
            return (
              <li key={entry.key} className={styles.item} data-menu-key={entry.key}>
                {children && !collapsed ? (
                  <button
                    type="button"
                    className={styles.entry}
                    data-current={current}
                    aria-expanded={open}
                    onClick={() => toggleGroup(entry.key)}
                  >
                    <MenuIcon name={entry.icon} className={styles.icon} />
                    <span className={styles.label}>{label}</span>
                    <MenuIcon name="chevron" className={styles.chevron} />
                  </button>
                ) : (
                  <Link
                    to={entry.to}
                    className={styles.entry}
                    data-current={current}
                    aria-current={current && !children ? 'page' : undefined}
                    aria-label={collapsed ? label : undefined}
                  >
                    <MenuIcon name={entry.icon} className={styles.icon} />
                    <span className={styles.label}>{label}</span>
                  </Link>
                )}
                {open && children ? (
                  <SubmenuLinks links={children} className={styles.submenu} pathname={pathname} />
                ) : null}
                {collapsed ? (
                  // Folded: the label and submenus appear beside the icon (CSS :hover / :focus-within).
                  <div className={styles.flyout} data-testid={`flyout-${entry.key}`}>
                    <p className={styles.flyoutTitle}>{label}</p>
                    {children ? (
                      <SubmenuLinks links={children} className={styles.flyoutList} pathname={pathname} />
                    ) : null}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}

/** A menu group's links: the same list unfolded under the group and in the folded menu's flyout. */
function SubmenuLinks({
  links,
  className,
  pathname,
}: {
  links: readonly MenuLink[];
  className: string | undefined;
  pathname: string;
}) {
  const { t } = useTranslation('shell');
  return (
    <ul className={className}>
      {links.map((child) => (
        <li key={child.key}>
          <Link
            to={child.to}
            className={styles.subEntry}
            aria-current={isCurrentLink(child.to, pathname) ? 'page' : undefined}
          >
            {t(`menu.${child.key}`)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
