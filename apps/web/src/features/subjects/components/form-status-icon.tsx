import type { FormDataResponse } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import styles from './subjects.module.css';

export type FormStatus = FormDataResponse['status'];
export const FORM_STATUS_ORDER: readonly FormStatus[] = ['empty', 'none', 'dash', 'alert', 'check'];

/**
 * The overview's five states (product.md "Form status"). Each has its own shape and colour, so the
 * states read without colour too, and an accessible name. SDV, frozen, locked and signed will be marks
 * next to the icon (`marks`), not new icons.
 */
export function FormStatusIcon({
  status,
  label,
  decorative = false,
}: {
  status: FormStatus;
  label?: string;
  /** Next to its own text (the legend): hidden from screen readers. */
  decorative?: boolean;
}) {
  const { t } = useTranslation('subjects');
  const name = label ?? t(`formStatus.${status}`);
  const a11y = decorative
    ? { 'aria-hidden': true as const }
    : { role: 'img', 'aria-label': name, title: name };
  return (
    <span className={styles.statusIcon} data-status={status} {...a11y}>
      <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        {status === 'none' ? <circle cx="10" cy="10" r="7" /> : null}
        {status === 'dash' ? (
          <>
            <circle cx="10" cy="10" r="7" />
            <path d="M6 10h8" />
          </>
        ) : null}
        {status === 'alert' ? (
          <>
            <path d="M10 2.8 18 17H2z" />
            <path d="M10 8v4.2M10 14.4v.4" />
          </>
        ) : null}
        {status === 'check' ? (
          <>
            <circle cx="10" cy="10" r="7.5" />
            <path d="m6.4 10.2 2.4 2.4 4.8-5" />
          </>
        ) : null}
      </svg>
    </span>
  );
}

export function FormStatusLegend() {
  const { t } = useTranslation('subjects');
  return (
    <div className={styles.legend}>
      <span className={styles.legendTitle}>{t('overview.legend')}</span>
      <ul className={styles.legendList}>
        {FORM_STATUS_ORDER.map((status) => (
          <li key={status}>
            <FormStatusIcon status={status} decorative />
            <span>{t(`formStatus.${status}`)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
