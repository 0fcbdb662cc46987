import { Outlet } from 'react-router';
import { AppHeader } from './app-header.tsx';
import styles from './app-layout.module.css';

/** Pages without the side menu (administration, the form preview): the header above the page. */
export function AppLayout() {
  return (
    <div className={styles.layout}>
      <AppHeader />
      <main className={styles.content}>
        <Outlet />
      </main>
    </div>
  );
}
