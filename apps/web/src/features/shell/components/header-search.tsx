import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import styles from './header-search.module.css';

export const SEARCH_PARAM = 'search';
const TYPING_DELAY_MS = 300;

/**
 * The task-list pages' search (spec §2): a button opening a 40rem box in the header that keeps the
 * text in the `search` query parameter; the list asks the server with it. Stays open while a search
 * is active so the user sees why the list is filtered.
 */
export function HeaderSearch() {
  const { t } = useTranslation('shell');
  const [params, setParams] = useSearchParams();
  const applied = params.get(SEARCH_PARAM) ?? '';
  const [open, setOpen] = useState(applied !== '');
  const [text, setText] = useState(applied);
  const input = useRef<HTMLInputElement>(null);

  // Back/forward or a link changed the URL: show what is applied.
  useEffect(() => setText(applied), [applied]);

  // Apply the text shortly after the user stops typing (replace: one history entry per search).
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === applied) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (trimmed) next.set(SEARCH_PARAM, trimmed);
          else next.delete(SEARCH_PARAM);
          return next;
        },
        { replace: true },
      );
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, applied, setParams]);

  if (!open) {
    return (
      <button
        type="button"
        className={styles.iconButton}
        aria-label={t('search.open')}
        title={t('search.open')}
        onClick={() => {
          setOpen(true);
          requestAnimationFrame(() => input.current?.focus());
        }}
      >
        <SearchIcon />
      </button>
    );
  }

  return (
    <search className={styles.box}>
      <SearchIcon />
      <input
        ref={input}
        type="search"
        className={styles.input}
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text === '') setOpen(false);
        }}
      />
      <button
        type="button"
        className={styles.clear}
        aria-label={t('search.clear')}
        title={t('search.clear')}
        onClick={() => {
          setText('');
          setOpen(false);
        }}
      >
        <span aria-hidden="true">×</span>
      </button>
    </search>
  );
}

function SearchIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5" />
    </svg>
  );
}
