import type { CSSProperties } from 'react';
import styles from './progress-bar.module.css';

/**
 * The one progress bar of the app (SDV progress, export jobs, amendment migrations): a filled share of
 * `max`. With a `label` it is an accessible `progressbar` (value, maximum and `valueText` read out);
 * without one it is decoration beside a number the page prints itself. `tone`: `partial` (amber, the
 * default), `active` (a job under way), `done` (green), `stopped` (grey: failed or cancelled).
 */
export function ProgressBar({
  value,
  max,
  label,
  valueText,
  tone = 'partial',
  width,
}: {
  value: number;
  max: number;
  label?: string;
  valueText?: string;
  tone?: 'partial' | 'active' | 'done' | 'stopped';
  /** The bar's width (CSS length); 12rem by default. */
  width?: string;
}) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : tone === 'done' ? 100 : 0;
  const style = width ? ({ '--progress-bar-width': width } as CSSProperties) : undefined;
  const fill = <span className={styles.fill} style={{ width: `${percent}%` }} data-tone={tone} />;
  if (label === undefined)
    return (
      <span className={styles.bar} style={style} aria-hidden="true">
        {fill}
      </span>
    );
  return (
    <span
      className={styles.bar}
      style={style}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
    >
      {fill}
    </span>
  );
}
