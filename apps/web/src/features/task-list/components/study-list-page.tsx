import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type StudyStatus, useStudies } from '../api/get-studies.ts';
import { parseViewMode, VIEW_PARAM, type ViewMode, withViewMode } from '../lib/view-mode.ts';
import { HelpLinks } from './help-links.tsx';
import { RecentStudies } from './recent-studies.tsx';
import { StudyCards } from './study-cards.tsx';
import styles from './study-list-page.module.css';
import { StudyTable } from './study-table.tsx';

/** `/task-list` (active studies, with the recently viewed strip) and `/task-end-list` (ended). */
export function StudyListPage({ status }: { status: StudyStatus }) {
  const { t } = useTranslation('taskList');
  const [params, setParams] = useSearchParams();
  const view = parseViewMode(params.get(VIEW_PARAM));
  const search = params.get('search')?.trim() ?? '';
  const studies = useStudies(status, search);
  const setView = (next: ViewMode) => setParams((current) => withViewMode(current, next), { replace: true });

  return (
    <div className={styles.page}>
      <div className={styles.heading}>
        <div>
          <h1 className={styles.title}>{t(`title.${status}`)}</h1>
          <p className={styles.subtitle}>
            {search ? t('searchResult', { search }) : t(`subtitle.${status}`)}
          </p>
        </div>
        <fieldset className={styles.viewSwitch} aria-label={t('view.label')}>
          {(['card', 'list'] as const).map((mode) => (
            <button key={mode} type="button" aria-pressed={view === mode} onClick={() => setView(mode)}>
              <ViewIcon mode={mode} />
              {t(`view.${mode}`)}
            </button>
          ))}
        </fieldset>
      </div>

      {status === 'active' ? <RecentStudies /> : null}

      <section className={styles.results} aria-label={t(`title.${status}`)} aria-busy={studies.isFetching}>
        {studies.isPending ? (
          <p className={styles.state}>{t('loading')}</p>
        ) : studies.isError ? (
          <p className={styles.stateError} role="alert">
            {studies.error.message}
          </p>
        ) : studies.data.length === 0 ? (
          <div className={styles.empty}>
            <p className={styles.emptyTitle}>
              {search ? t('empty.searchTitle', { search }) : t(`empty.${status}Title`)}
            </p>
            <p className={styles.emptyText}>{search ? t('empty.searchText') : t(`empty.${status}Text`)}</p>
          </div>
        ) : view === 'card' ? (
          <StudyCards studies={studies.data} actions={status === 'active'} />
        ) : (
          <StudyTable studies={studies.data} />
        )}
      </section>

      <HelpLinks />
    </div>
  );
}

function ViewIcon({ mode }: { mode: ViewMode }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path
        d={mode === 'card' ? 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z' : 'M4 6h16M4 12h16M4 18h16'}
      />
    </svg>
  );
}
