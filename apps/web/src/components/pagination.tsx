import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import styles from './pagination.module.css';

/** prototype-spec §9: five page buttons at most, the window centred on the current page. */
export const VISIBLE_PAGE_BUTTONS = 5;

/** The query parameter every list keeps its page in (prototype-spec §4). */
export const PAGE_PARAM = 'page';

/** Pages needed for `total` rows (§5: total / rows per page, rounded up); 0 when there are none. */
export function pageCount(total: number, pageSize: number): number {
  if (!Number.isFinite(total) || total <= 0 || !Number.isFinite(pageSize) || pageSize <= 0) return 0;
  return Math.ceil(total / pageSize);
}

/** The page a URL asks for: a whole number from 1 up; missing or unreadable values mean page 1. */
export function parsePageParam(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw)) return 1;
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * The page buttons to show: `visible` numbers centred on the current page, the window shifted
 * (not shrunk) at either end so that it always shows as many pages as there are, up to `visible`.
 */
export function pageWindow(current: number, totalPages: number, visible = VISIBLE_PAGE_BUTTONS): number[] {
  if (totalPages <= 0) return [];
  const width = Math.min(visible, totalPages);
  const page = Math.min(Math.max(1, current), totalPages);
  const first = Math.min(Math.max(1, page - Math.floor(width / 2)), totalPages - width + 1);
  return Array.from({ length: width }, (_, index) => first + index);
}

/**
 * The current page from the URL and a setter. Page 1 is the bare URL (no `page=1`), so that a
 * list's first page has one address. Other query parameters (filters) are kept.
 */
export function usePageParam(
  param = PAGE_PARAM,
): [number, (page: number, options?: { replace?: boolean }) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = parsePageParam(searchParams.get(param));
  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) => {
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next <= 1) params.delete(param);
          else params.set(param, String(next));
          return params;
        },
        { replace: options?.replace ?? false },
      );
    },
    [param, setSearchParams],
  );
  return [page, setPage];
}

interface PaginationProps {
  /** Rows in the whole list (not on this page). */
  total: number;
  pageSize: number;
  /** The query parameter holding the page; `page` unless two lists share one screen. */
  param?: string;
}

/**
 * The pager every list uses (prototype-spec §4, §5, §9): first, previous, up to five page numbers,
 * next, last. The page lives in the URL, so reloading or sharing a link keeps it. A page outside
 * 1…last (typed into the URL, or left over after rows were deleted) is replaced by the nearest
 * valid one; buttons never ask for a page outside that range. Hidden with one page or none.
 */
export function Pagination({ total, pageSize, param = PAGE_PARAM }: PaginationProps) {
  const { t } = useTranslation('ui');
  const [searchParams] = useSearchParams();
  const [page, setPage] = usePageParam(param);
  const totalPages = pageCount(total, pageSize);
  const raw = searchParams.get(param);

  // Correct the URL rather than show an empty page: replace, so Back does not return to it.
  const lastValid = Math.max(1, totalPages);
  const needsFix = page > lastValid || (raw !== null && raw !== String(page)) || raw === '1';
  useEffect(() => {
    if (needsFix) setPage(Math.min(page, lastValid), { replace: true });
  }, [needsFix, page, lastValid, setPage]);

  if (totalPages <= 1) return null;
  const current = Math.min(page, totalPages);

  function goTo(next: number) {
    // Only whole pages between 1 and the last one, and never the page already shown (§5).
    if (!Number.isInteger(next) || next < 1 || next > totalPages || next === current) return;
    setPage(next);
  }

  const onFirst = current === 1;
  const onLast = current === totalPages;
  return (
    <nav className={styles.pagination} aria-label={t('pagination.label')}>
      <button
        type="button"
        className={styles.button}
        disabled={onFirst}
        onClick={() => goTo(1)}
        aria-label={t('pagination.first')}
      >
        <span aria-hidden="true">«</span>
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={onFirst}
        onClick={() => goTo(current - 1)}
        aria-label={t('pagination.previous')}
      >
        <span aria-hidden="true">‹</span>
      </button>
      {pageWindow(current, totalPages).map((number) => (
        <button
          key={number}
          type="button"
          className={`${styles.button} ${number === current ? styles.current : ''}`}
          aria-current={number === current ? 'page' : undefined}
          aria-label={t('pagination.page', { page: number })}
          onClick={() => goTo(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className={styles.button}
        disabled={onLast}
        onClick={() => goTo(current + 1)}
        aria-label={t('pagination.next')}
      >
        <span aria-hidden="true">›</span>
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={onLast}
        onClick={() => goTo(totalPages)}
        aria-label={t('pagination.last')}
      >
        <span aria-hidden="true">»</span>
      </button>
    </nav>
  );
}
