import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageToggle } from '../components/language-toggle.tsx';
import { SidePopupGroup } from '../components/side-popup.tsx';
import { UserPopup } from '../features/auth/components/user-popup.tsx';
import { SessionTimer } from '../features/session/components/session-timer.tsx';
import styles from './app-header.module.css';
import { paths } from './paths.ts';
import { VersionPopup } from './version-popup.tsx';

/**
 * The header of the signed-in pages (prototype-spec §2 "Header"): product name, language, session
 * timer, version and user popups. The full shell (side menu, notice strip, search) will reuse it
 * and put its own controls in `actions`, left of the popups.
 */
export function AppHeader({ actions }: { actions?: ReactNode }) {
  const { t } = useTranslation('shell');
  return (
    <header className={styles.header}>
      <Link to={paths.taskList} className={styles.brand}>
        <span className={styles.logo}>CDMS</span>
        <span className={styles.productName}>{t('productName')}</span>
      </Link>
      <div className={styles.actions}>
        {actions}
        <LanguageToggle tone="dark" />
        <SessionTimer />
        {/* One popup at a time: opening one replaces the other. */}
        <SidePopupGroup>
          <VersionPopup />
          <UserPopup />
        </SidePopupGroup>
      </div>
    </header>
  );
}
