import type { FormDataResponse } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { QueryStateBadge } from '../../../components/status-badge.tsx';
import styles from './subject-detail.module.css';

type ItemQuery = FormDataResponse['queries'][number];

/**
 * What an item's queries come to on its badge: open and answered ones counted under the state that
 * needs work first (open before answered); with none of those, the latest settled state, muted.
 */
export function querySummary(queries: readonly ItemQuery[]) {
  const unresolved = queries.filter((query) => query.status === 'open' || query.status === 'answered');
  if (unresolved.length > 0) {
    const state = unresolved.some((query) => query.status === 'open') ? 'open' : 'answered';
    return { state, count: unresolved.length, settled: false } as const;
  }
  const latest = [...queries].sort((a, b) => b.openedAt.localeCompare(a.openedAt))[0];
  return latest ? ({ state: latest.status, count: 0, settled: true } as const) : null;
}

/**
 * The query button beside an item's label: a state badge with the count of open and answered
 * queries (closed and cancelled ones muted), or "+ query" for a monitor on an item without any.
 * Opens the thread panel.
 */
export function ItemQueryButton({
  queries,
  canRaise,
  describedBy,
  onOpen,
}: {
  queries: readonly ItemQuery[];
  canRaise: boolean;
  describedBy: string;
  onOpen: () => void;
}) {
  const { t } = useTranslation('queries');
  const summary = querySummary(queries);
  if (!summary && !canRaise) return null;
  const stateLabel = summary ? t(`states.${summary.state}`) : '';
  // The visible text is the button's name ("Query · Open 2"); the item's label describes it.
  return (
    <button
      type="button"
      className={styles.itemQuery}
      data-settled={summary?.settled || undefined}
      data-raise={summary ? undefined : true}
      aria-describedby={describedBy}
      onClick={onOpen}
    >
      {summary ? (
        <QueryStateBadge state={summary.state}>
          {t('badge.button')} ·{' '}
          {summary.settled ? stateLabel : t('badge.unresolved', { state: stateLabel, count: summary.count })}
        </QueryStateBadge>
      ) : (
        t('badge.raise')
      )}
    </button>
  );
}
