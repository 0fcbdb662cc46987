import type { HTMLAttributes } from 'react';
import styles from './designer.module.css';

/**
 * What a mouse picks an element up by. The keyboard has the arrow buttons beside it, so the grip is
 * hidden from assistive technology.
 */
export function DragGrip({ title, ...dragProps }: { title: string } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={styles.dragGrip} title={title} aria-hidden="true" {...dragProps}>
      ⠿
    </span>
  );
}
