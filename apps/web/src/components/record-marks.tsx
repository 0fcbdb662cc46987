import type { HoldMark, SdvFormState } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import styles from './record-marks.module.css';

/**
 * The marks issue 15 adds beside a form's status (product.md: "SDV, frozen, locked and signed are shown
 * as additional marks on a cell, not as new icons"): small text pills that read without colour. Used
 * on the overview's cells, the form's title, the SDV page and the readiness board.
 */

/** A form's (or visit's) SDV against the plan; nothing when nothing of it is in the plan. */
export function SdvMark({ state, compact = false }: { state: SdvFormState; compact?: boolean }) {
  const { t } = useTranslation('sdv');
  if (state === 'notRequired') return null;
  return (
    <span className={styles.mark} data-sdv={state} title={t(`formStates.${state}`)}>
      {compact ? t(`mark.compact.${state}`) : t(`formStates.${state}`)}
    </span>
  );
}

/** The strongest freeze or lock over a thing, with the level it was placed at. */
export function HoldMarkBadge({ mark, compact = false }: { mark: HoldMark; compact?: boolean }) {
  const { t } = useTranslation('holds');
  if (!mark) return null;
  const full = t('mark.full', { kind: t(`kinds.${mark.kind}`), level: t(`levels.${mark.level}`) });
  return (
    <span className={styles.mark} data-hold={mark.kind} title={full}>
      {compact ? t(`kinds.${mark.kind}`) : full}
    </span>
  );
}
