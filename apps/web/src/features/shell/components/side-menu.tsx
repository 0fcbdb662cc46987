import type { MenuType } from '@cdms/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { isCurrentLink, type MenuEntry } from '../lib/menu.ts';
import { MenuIcon } from './menu-icon.tsx';
import styles from './side-menu.module.css';

const COLLAPSED_STORAGE_KEY = 'cdms.sideMenu.collapsed';

function storedCollapsed(): boolean {
  try {
    return window.localStorage.getItem(COLLAPSED_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
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
 * submenus in a flyout on hover or keyboard focus; folding closes every expanded submenu.
 */
export function SideMenu({ entries, study, menuTypes }: SideMenuProps) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(storedCollapsed);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const onTaskListPage = pathname === paths.taskList || pathname === paths.taskEndList;

  // The group holding the page being shown opens by itself (while the menu is expanded).
  useEffect(() => {
    if (collapsed) return;
    const group = entries.find((entry) => entry.children?.some((child) => isCurrentLink(child.to, pathname)));
    if (group)
      setExpanded((current) => (current.has(group.key) ? current : new Set([...current, group.key])));
  }, [collapsed, entries, pathname]);

  const toggleCollapsed = () => {
    const next = !collapsed;
    setCollapsed(next);
    if (next) setExpanded(new Set());
    try {
      window.localStorage.setItem(COLLAPSED_STORAGE_KEY, next ? '1' : '0');
    } catch {
      // Not remembered; the menu still folds.
    }
  };

  const toggleGroup = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <aside className={`${styles.menu} ${collapsed ? styles.collapsed : ''}`} data-collapsed={collapsed}>
      <div className={styles.top}>
        <Link to={paths.taskList} className={styles.logo} aria-label={t('menu.logo')}>
          <span className={styles.logoMark} aria-hidden="true">
            C
          </span>
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
                  <ul className={styles.submenu}>
                    {children.map((child) => (
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
                ) : null}
                {collapsed ? (
                  // Folded: the label and submenus appear beside the icon (CSS :hover / :focus-within).
                  <div className={styles.flyout} data-testid={`flyout-${entry.key}`}>
                    <p className={styles.flyoutTitle}>{label}</p>
                    {children ? (
                      <ul className={styles.flyoutList}>
                        {children.map((child) => (
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
