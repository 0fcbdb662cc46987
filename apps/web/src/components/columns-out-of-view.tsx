import { type RefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './columns-out-of-view.module.css';

// A table wider than its frame scrolls sideways, but nothing said so: at 1000 px a list's last columns or
// the overview matrix's visits simply ended at the frame's edge, as if there were none (issue 43 item 8).
// `useColumnsOutOfView` counts the header cells beyond the frame's visible edges, and `ColumnsOutOfView`
// says how many lie on each side (the frames add a fade on that side).

/** A header cell's horizontal extent; `sticky` cells stay in view and cover the scrolling ones. */
export interface ColumnEdge {
  left: number;
  right: number;
  sticky?: 'start' | 'end';
}

/**
 * How many scrolling columns lie, wholly or partly, beyond each visible edge of a frame: a column counts
 * when at least 2 px of it are hidden (rounding) behind the frame's edge or a sticky column at that edge.
 */
export function countColumnsOutOfView(
  columns: readonly ColumnEdge[],
  frame: { left: number; right: number },
): { left: number; right: number } {
  const visibleLeft = Math.max(
    frame.left,
    ...columns.filter((c) => c.sticky === 'start').map((c) => c.right),
  );
  const visibleRight = Math.min(frame.right, ...columns.filter((c) => c.sticky === 'end').map((c) => c.left));
  let left = 0;
  let right = 0;
  for (const column of columns) {
    if (column.sticky) continue;
    if (column.right > visibleRight + 2) right += 1;
    else if (column.left < visibleLeft - 2) left += 1;
  }
  return { left, right };
}

/**
 * The columns out of view in `frame` (a scrolling element holding a table), kept up to date on scroll and
 * on resize. The header cells of the table's first header row are the columns; a cell marked
 * `data-sticky="start" | "end"` is a sticky one.
 */
export function useColumnsOutOfView(frame: RefObject<HTMLElement | null>): { left: number; right: number } {
  const [counts, setCounts] = useState({ left: 0, right: 0 });
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => {
      const cells = element.querySelectorAll<HTMLElement>('thead > tr:first-child > th');
      const box = element.getBoundingClientRect();
      const next = countColumnsOutOfView(
        [...cells].map((cell) => {
          const rect = cell.getBoundingClientRect();
          const sticky = cell.dataset.sticky;
          return {
            left: rect.left,
            right: rect.right,
            ...(sticky === 'start' || sticky === 'end' ? { sticky } : {}),
          };
        }),
        // The frame's client area: its vertical scroll bar, if any, is not room for columns.
        { left: box.left + element.clientLeft, right: box.left + element.clientLeft + element.clientWidth },
      );
      setCounts((current) => (current.left === next.left && current.right === next.right ? current : next));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(element);
    const table = element.querySelector('table');
    if (table) observer?.observe(table);
    return () => {
      element.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  });
  return counts;
}

/**
 * "← 2 columns to the left · 3 more columns to the right →" above a frame whose table is wider than it,
 * for sighted readers who would otherwise take the frame's edge for the table's. It stays while the table
 * overflows (scrolled to either end it names the other side), so the table below does not jump as the
 * reader scrolls. Screen readers read the whole table, so the hint is not announced.
 */
export function ColumnsOutOfView({ left, right }: { left: number; right: number }) {
  const { t } = useTranslation('ui');
  if (left === 0 && right === 0) return null;
  return (
    <p className={styles.hint} aria-hidden="true" data-columns-left={left} data-columns-right={right}>
      {left > 0 ? (
        <span>
          <span className={styles.arrow}>←</span> {t('columnsOutOfView.left', { count: left })}
        </span>
      ) : null}
      {left > 0 && right > 0 ? <span>·</span> : null}
      {right > 0 ? (
        <span>
          {t('columnsOutOfView.right', { count: right })} <span className={styles.arrow}>→</span>
        </span>
      ) : null}
    </p>
  );
}
