import { Outlet } from 'react-router';
import { AppHeader } from './app-header.tsx';
import styles from './app-layout.module.css';

/** The signed-in pages' frame: the header above the page. The side menu joins it later. */
export function AppLayout() {
  return (
    <div className={styles.layout}>
      <AppHeader />
      <div className={styles.content}>
        <Outlet />
      </div>
    </div>
  );
}
