import { lazy, Suspense } from 'react';
import styles from './monitoring-panel.module.css';

// The panel, its strings (the `monitoring` namespace) and its parts load after the dashboard is usable:
// the dashboard's first load stays within its JavaScript budget (e2e/tests/first-load.spec.ts).
const MonitoringPanel = lazy(async () => ({
  default: (await import('./monitoring-panel.tsx')).MonitoringPanel,
}));

/**
 * The dashboard's central-monitoring card as the app layer places it: an empty card of the same size
 * until the panel's code and strings are there, then the panel (`monitoring-panel.tsx`).
 */
export function MonitoringPanelSlot({ studyId }: { studyId: number }) {
  return (
    <Suspense fallback={<div className={styles.panel} aria-busy="true" />}>
      <MonitoringPanel studyId={studyId} />
    </Suspense>
  );
}
