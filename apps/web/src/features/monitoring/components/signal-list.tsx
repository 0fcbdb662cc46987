import { SIGNAL_PAGE_SIZES, type Signal, type SignalKind, signalKinds } from '@cdms/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { FilterChoice, FilterPanel, SiteFilterChoice } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useSignals } from '../api/monitoring-api.ts';
import { localized, strengthPercent } from '../lib/indicators.ts';
import { MENU_TYPE_PARAM, SIGNAL_PARAM } from '../lib/monitoring-urls.ts';
import {
  type SignalPageSize,
  type SignalStateFilter,
  signalListParams,
  signalStateFilters,
} from '../lib/signal-filters.ts';
import styles from './monitoring.module.css';
import { SIGNAL_MODAL, SignalDetail } from './signal-detail.tsx';

/**
 * The statistical signals (issue 50 item 2), strongest first as the server sorts them: filters by
 * site, kind and state in the URL (lib/list-state.ts), paged by the shared table. A row opens the
 * signal's detail beside the list; `?signal=` (the dashboard panel's links) opens it on arrival.
 */
export function SignalList({
  studyId,
  sites,
  canAct,
}: {
  studyId: number;
  sites: readonly { id: number; code: string; name: string }[];
  canAct: boolean;
}) {
  const { t, i18n } = useTranslation('monitoring');
  const modals = useModalStack();
  const { values: filters, apply, searchParams } = useListState(signalListParams);
  const [, setSearchParams] = useSearchParams();
  const openModal = modals.open;
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const list = useSignals(studyId, filters, true);
  const [draft, setDraft] = useState(filters);
  // The signal shown in the detail: the list's fresh copy when it is on the page, else the last one seen.
  const [selected, setSelected] = useState<Signal | null>(null);
  const shown = (selected && list.data?.items.find((signal) => signal.id === selected.id)) || selected;

  function open(signal: Signal) {
    setSelected(signal);
    modals.open(SIGNAL_MODAL);
  }

  // A link with `?signal=<id>` opens that signal once the list holds it; the parameter is then dropped.
  const wanted = Number(searchParams.get(SIGNAL_PARAM) ?? Number.NaN);
  const rows = list.data?.items;
  useEffect(() => {
    if (!Number.isInteger(wanted) || !rows) return;
    const signal = rows.find((row) => row.id === wanted);
    if (signal) {
      setSelected(signal);
      openModal(SIGNAL_MODAL);
    }
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(SIGNAL_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [wanted, rows, openModal, setSearchParams]);

  const columns: DataTableColumn<Signal>[] = [
    {
      id: 'strength',
      header: t('signals.strength'),
      hideable: false,
      cell: (signal) => {
        const percent = strengthPercent(signal.strength);
        return (
          <span className={styles.strengthCell}>
            <ProgressBar value={percent} max={100} width="5rem" />
            <span>{percent}%</span>
          </span>
        );
      },
    },
    {
      id: 'kind',
      header: t('signals.kind'),
      cell: (signal) => (
        <span className={styles.kindBadge} title={t(`kinds.${signal.kind}.description`)}>
          {t(`kinds.${signal.kind}.name`)}
        </span>
      ),
    },
    {
      id: 'site',
      header: t('signals.site'),
      cell: (signal) => <span title={signal.site.name}>{signal.site.code}</span>,
    },
    {
      id: 'what',
      header: t('signals.what'),
      hideable: false,
      wrap: true,
      cell: (signal) => (
        <button type="button" className={styles.linkButton} onClick={() => open(signal)}>
          {localized(signal.title, i18n.language)}
        </button>
      ),
    },
    {
      id: 'state',
      header: t('signals.state'),
      cell: (signal) => (
        <span className={styles.stateBadge} data-state={signal.state}>
          {t(`states.${signal.state}`)}
        </span>
      ),
    },
    {
      id: 'foundAt',
      header: t('signals.foundAt'),
      cell: (signal) => formatDateTimeKst(signal.foundAt),
    },
  ];

  return (
    <>
      <FilterPanel
        onSubmit={() => apply(draft)}
        onReset={() => {
          const reset = { site: null, kind: '' as const, state: 'active' as const };
          setDraft({ ...draft, ...reset });
          apply(reset);
        }}
      >
        <SiteFilterChoice
          label={t('signals.site')}
          allSitesLabel={t('signals.allSites')}
          sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
          value={draft.site}
          onChange={(site) => setDraft({ ...draft, site })}
        />
        <FilterChoice<SignalKind | ''>
          label={t('signals.kind')}
          choices={['', ...signalKinds]}
          value={draft.kind}
          optionLabel={(kind) => (kind === '' ? t('signals.allKinds') : t(`kinds.${kind}.name`))}
          onChange={(kind) => setDraft({ ...draft, kind })}
        />
        <FilterChoice<SignalStateFilter>
          label={t('signals.state')}
          choices={signalStateFilters}
          value={draft.state}
          optionLabel={(state) => t(`states.${state}`)}
          onChange={(state) => setDraft({ ...draft, state })}
        />
      </FilterPanel>
      <PagedListTable<Signal, string, SignalPageSize>
        id="monitoring-signals"
        label={t('signals.caption')}
        columns={columns}
        rows={rows}
        rowKey={(signal) => String(signal.id)}
        rowAttributes={(signal) => ({ 'data-signal-id': String(signal.id), 'data-kind': signal.kind })}
        onRowClick={open}
        fit
        query={list}
        loadFailed={t('loadFailed')}
        emptyMessage={t('signals.none')}
        count={(total) => t('signals.count', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: SIGNAL_PAGE_SIZES, onChange: (size) => apply({ size }) }}
      />
      <SignalDetail
        studyId={studyId}
        signal={shown}
        canAct={canAct}
        menuType={menuType}
        onDismissed={(signal) => setSelected({ ...signal, state: 'dismissed' })}
      />
    </>
  );
}
