import type { SummaryResponse } from '@cdms/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './summary.module.css';

export type Language = 'ko' | 'en';

export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ko';
}

/** One section of the summary: a titled panel, with a line saying what it counts. */
export function SummaryPanel({
  title,
  note,
  children,
}: {
  title: string;
  note?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        {title}
      </h2>
      {note ? <p className={styles.note}>{note}</p> : null}
      {children}
    </section>
  );
}

/** A group's label from the answer's groups (present only when the reader may know them). */
export function groupLabel(data: SummaryResponse, code: string, language: Language): string {
  return data.groups?.find((group) => group.code === code)?.label[language] ?? code;
}

/** A mean or median to one decimal, or a dash without any value. */
export function oneDecimal(value: number | null): string {
  return value === null ? '–' : value.toFixed(1);
}
