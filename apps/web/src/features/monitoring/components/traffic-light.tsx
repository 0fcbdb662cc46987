import type { TrafficLight } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { lightSymbol } from '../lib/indicators.ts';
import styles from './monitoring.module.css';

/**
 * A traffic light told by colour, shape and words: the coloured shape, and its name beside it
 * (`withText`) or as the accessible name only where the cell is tight.
 */
export function TrafficLightMark({ light, withText = false }: { light: TrafficLight; withText?: boolean }) {
  const { t } = useTranslation('monitoring');
  const name = t(`lights.${light}`);
  return (
    <span className={styles.light} data-light={light} title={name}>
      <span className={styles.lightSymbol} aria-hidden="true">
        {lightSymbol[light]}
      </span>
      {withText ? (
        <span className={styles.lightText}>{name}</span>
      ) : (
        <span className={styles.visuallyHidden}>{name}</span>
      )}
    </span>
  );
}
