import { useTranslation } from 'react-i18next';
import { pageWindow } from '../lib/pagination.ts';
import styles from './admin-ui.module.css';

interface PaginationProps {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
}

/** First, previous, page numbers, next, last (prototype-spec §4); hidden when there is one page (§5). */
export function Pagination({ page, lastPage, onChange }: PaginationProps) {
  const { t } = useTranslation('admin');
  if (lastPage <= 1) return null;
  const button = `${styles.button} ${styles.small} ${styles.pageButton}`;
  return (
    <nav className={styles.pagination} aria-label={t('pagination.label')}>
      <button
        type="button"
        className={button}
        disabled={page === 1}
        onClick={() => onChange(1)}
        aria-label={t('pagination.first')}
      >
        «
      </button>
      <button
        type="button"
        className={button}
        disabled={page === 1}
        onClick={() => onChange(page - 1)}
        aria-label={t('pagination.previous')}
      >
        ‹
      </button>
      {pageWindow(page, lastPage).map((number) => (
        <button
          key={number}
          type="button"
          className={button}
          aria-current={number === page ? 'page' : undefined}
          aria-label={t('pagination.page', { page: number })}
          onClick={() => onChange(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className={button}
        disabled={page === lastPage}
        onClick={() => onChange(page + 1)}
        aria-label={t('pagination.next')}
      >
        ›
      </button>
      <button
        type="button"
        className={button}
        disabled={page === lastPage}
        onClick={() => onChange(lastPage)}
        aria-label={t('pagination.last')}
      >
        »
      </button>
    </nav>
  );
}
