import {
  CODING_PAGE_SIZES,
  type CodingAssignment,
  type CodingStatus,
  codingKinds,
  codingStatuses,
  QUERY_TEXT_MAX,
} from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { FilterChoice, FilterPanel, FilterText, ListPage } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { filterPanelKey, panelFieldsOf, useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useCodeAssignment, useCodingQueue, useCodingSearch, useSendCodingQuery } from '../api/coding.ts';
import { type CodingFilters, codingParams, DEFAULT_CODING_FILTERS } from '../lib/coding-filters.ts';
import { pathLevels, pathLine } from '../lib/coding-path.ts';
import styles from './coding.module.css';
import { DictionariesSection } from './dictionaries-section.tsx';

const QUERY_MODAL = 'coding-query';

/**
 * `/coding/:studyId` (issue 51 item 2): the coder's queue of verbatim adverse-event terms and drug
 * names — filtered and paged by the server, pending ones first —, a panel for the chosen verbatim
 * (search the dictionary, see the path LLT → PT → HLT → HLGT → SOC or drug → ATC, choose, or send
 * the verbatim back to its site as a query) and, for the keepers of the dictionaries, their versions.
 */
export function CodingPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Coding studyId={studyId} />;
}

type PanelFields = Pick<CodingFilters, 'status' | 'kind' | 'search'>;
const EMPTY_PANEL: PanelFields = { status: '', kind: '', search: '' };

function Coding({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('coding');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const me = useMe();
  const abilities = me.data?.memberships.find((m) => m.studyId === studyId)?.abilities ?? [];
  const mayCode = abilities.includes('coding.code');
  const mayKeep = abilities.includes('coding.dictionaries');
  const { values: filters, apply } = useListState(codingParams);
  const queue = useCodingQueue(studyId, filters, mayCode);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const chosen = queue.data?.items.find((item) => item.id === chosenId) ?? null;
  const counts = queue.data?.counts;

  const columns: DataTableColumn<CodingAssignment>[] = [
    {
      id: 'verbatim',
      header: t('columns.verbatim'),
      hideable: false,
      wrap: true,
      cell: (row) => (
        <button
          type="button"
          className={styles.verbatimButton}
          aria-pressed={row.id === chosenId}
          onClick={() => setChosenId(row.id)}
        >
          {row.verbatim}
        </button>
      ),
    },
    { id: 'kind', header: t('columns.kind'), cell: (row) => t(`kind.${row.kind}`) },
    {
      id: 'status',
      header: t('columns.status'),
      cell: (row) => (
        <span className={styles.status} data-status={row.status}>
          {t(`status.${row.status}`)}
        </span>
      ),
    },
    {
      id: 'subject',
      header: t('columns.subject'),
      cell: (row) => `${row.screeningNumber} · ${row.siteCode}`,
    },
    { id: 'code', header: t('columns.code'), wrap: true, cell: (row) => pathLine(row.path, language) || '—' },
    { id: 'version', header: t('columns.version'), cell: (row) => row.dictionaryVersion ?? '—' },
  ];

  return (
    <ListPage title={t('page.title')}>
      <p className={styles.lead}>{t('page.lead')}</p>
      {mayCode ? (
        <>
          {counts ? (
            <p className={styles.counts} aria-live="polite">
              {codingStatuses
                .map((status) => t('page.countOf', { status: t(`status.${status}`), count: counts[status] }))
                .join(' · ')}
            </p>
          ) : null}
          <QueueFilterPanel
            key={filterPanelKey(filters, EMPTY_PANEL)}
            filters={filters}
            apply={(change) => apply({ ...filters, ...change, page: 1 })}
          />
          <div className={styles.workArea}>
            <div className={styles.queue}>
              <PagedListTable<CodingAssignment, string, (typeof CODING_PAGE_SIZES)[number]>
                id="coding-queue"
                label={t('page.caption')}
                columns={columns}
                rows={queue.data?.items}
                rowKey={(row) => String(row.id)}
                rowAttributes={(row) => ({ 'data-status': row.status })}
                fit
                query={queue}
                loadFailed={t('page.loadFailed')}
                emptyMessage={t('page.none')}
                count={(total) => t('page.count', { count: total })}
                pageSize={filters.size}
                pageSizeChoice={{
                  sizes: CODING_PAGE_SIZES,
                  onChange: (size) => apply({ ...filters, size, page: 1 }),
                }}
              />
            </div>
            {chosen ? (
              <CodingPanel
                key={`${chosen.id}:${chosen.version}`}
                studyId={studyId}
                assignment={chosen}
                language={language}
              />
            ) : (
              <p className={styles.hint}>{t('panel.choose')}</p>
            )}
          </div>
        </>
      ) : null}
      {mayKeep ? <DictionariesSection studyId={studyId} /> : null}
    </ListPage>
  );
}

function QueueFilterPanel({
  filters,
  apply,
}: {
  filters: CodingFilters;
  apply: (change: Partial<CodingFilters>) => void;
}) {
  const { t } = useTranslation('coding');
  const [draft, setDraft] = useState<PanelFields>(() => panelFieldsOf(filters, EMPTY_PANEL));
  return (
    <FilterPanel
      onSubmit={() => apply({ ...draft, search: draft.search.trim() })}
      onReset={() => apply({ ...DEFAULT_CODING_FILTERS, size: filters.size })}
    >
      <FilterChoice
        label={t('filters.status')}
        choices={['', ...codingStatuses] as const}
        value={draft.status}
        optionLabel={(status: CodingStatus | '') =>
          status === '' ? t('filters.all') : t(`status.${status}`)
        }
        onChange={(status) => setDraft({ ...draft, status })}
      />
      <FilterChoice
        label={t('filters.kind')}
        choices={['', ...codingKinds] as const}
        value={draft.kind}
        optionLabel={(kind) => (kind === '' ? t('filters.all') : t(`kind.${kind}`))}
        onChange={(kind) => setDraft({ ...draft, kind })}
      />
      <FilterText
        label={t('filters.search')}
        value={draft.search}
        maxLength={100}
        onChange={(search) => setDraft({ ...draft, search })}
      />
    </FilterPanel>
  );
}

function CodingPanel({
  studyId,
  assignment,
  language,
}: {
  studyId: number;
  assignment: CodingAssignment;
  language: 'ko' | 'en';
}) {
  const { t } = useTranslation('coding');
  const toast = useToast();
  const modals = useModalStack();
  const [text, setText] = useState(assignment.verbatim);
  const [searched, setSearched] = useState(assignment.verbatim);
  const search = useCodingSearch(studyId, assignment.kind, searched);
  const code = useCodeAssignment(studyId);
  const query = useSendCodingQuery(studyId);
  const [picked, setPicked] = useState<string | null>(null);
  const keyOf = (result: { code: string; name: string }) => `${result.code}:${result.name}`;
  const pickedResult = search.data?.results.find((result) => keyOf(result) === picked) ?? null;

  async function choose() {
    if (!pickedResult) return;
    try {
      await code.mutateAsync({ id: assignment.id, version: assignment.version, code: pickedResult.code });
      toast(t('panel.coded', { verbatim: assignment.verbatim }), 'success');
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  return (
    <section className={styles.panel} aria-labelledby="coding-panel-title">
      <h2 id="coding-panel-title" className={styles.panelTitle}>
        {assignment.verbatim}
      </h2>
      <p className={styles.panelMeta}>
        {t(`kind.${assignment.kind}`)} · {assignment.screeningNumber} · {t(`status.${assignment.status}`)}
      </p>
      {assignment.path ? (
        <dl className={styles.path}>
          {pathLevels(assignment.path, language).map((entry) => (
            <div key={`${entry.level}:${entry.text}`} className={styles.pathRow}>
              <dt>{t(`levels.${entry.level}`)}</dt>
              <dd>{entry.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <form
        className={styles.searchForm}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setPicked(null);
          setSearched(text.trim());
        }}
      >
        <label className={styles.searchLabel}>
          {t('panel.search')}
          <input
            className={styles.searchInput}
            value={text}
            maxLength={100}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <Button type="submit" variant="secondary" size="sm">
          {t('panel.searchButton')}
        </Button>
      </form>
      {search.data ? (
        search.data.results.length === 0 ? (
          <p className={styles.hint}>{t('panel.noResults')}</p>
        ) : (
          <ul
            className={styles.results}
            aria-label={t('panel.results', { version: search.data.dictionaryVersion ?? '' })}
          >
            {search.data.results.map((result) => (
              <li key={keyOf(result)}>
                <label className={styles.result}>
                  <input
                    type="radio"
                    name="coding-result"
                    checked={picked === keyOf(result)}
                    onChange={() => setPicked(keyOf(result))}
                  />
                  <span>
                    <strong>{result.name}</strong> <span className={styles.code}>{result.code}</span>
                    <span className={styles.resultPath}>{pathLine(result.path, language)}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {pickedResult ? (
        <dl className={styles.path} aria-label={t('panel.pickedPath')}>
          {pathLevels(pickedResult.path, language).map((entry) => (
            <div key={`${entry.level}:${entry.text}`} className={styles.pathRow}>
              <dt>{t(`levels.${entry.level}`)}</dt>
              <dd>{entry.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className={styles.panelActions}>
        <Button disabled={!pickedResult || code.isPending} onClick={() => void choose()}>
          {t('panel.choose_button')}
        </Button>
        <Button
          variant="secondary"
          disabled={assignment.status === 'query'}
          onClick={() => modals.open(QUERY_MODAL)}
        >
          {t('panel.sendQuery')}
        </Button>
      </div>
      <ReasonDialog
        name={QUERY_MODAL}
        title={t('query.title')}
        description={t('query.description', { verbatim: assignment.verbatim })}
        reasonLabel={t('query.text')}
        confirmLabel={t('query.send')}
        maxLength={QUERY_TEXT_MAX}
        requiredMessage={t('query.required')}
        onSubmit={async (message) => {
          try {
            await query.mutateAsync({ id: assignment.id, version: assignment.version, text: message });
            toast(t('query.sent'), 'success');
            return null;
          } catch (error) {
            return error instanceof Error ? error.message : String(error);
          }
        }}
      />
    </section>
  );
}
