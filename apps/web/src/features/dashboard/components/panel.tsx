import { type ReactNode, useId } from 'react';
import styles from './dashboard-page.module.css';

/** One card of the dashboard: a heading, optional controls on its right, the content. */
export function Panel({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={styles.panel} aria-labelledby={id}>
      <div className={styles.panelHeader}>
        <h2 id={id} className={styles.panelTitle}>
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** What a panel shows instead of figures: loading, an error, or nothing to count yet. */
export function Empty({ text, compact = false }: { text: string; compact?: boolean }) {
  return <p className={compact ? `${styles.empty} ${styles.compact}` : styles.empty}>{text}</p>;
}
