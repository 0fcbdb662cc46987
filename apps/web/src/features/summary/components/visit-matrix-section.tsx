import {
  type SummaryResponse,
  type VisitCompletionCounts,
  type VisitCompletionState,
  visitCompletionStates,
} from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import styles from './summary.module.css';
import { visitColumn } from './summary-chart.tsx';
import { SummaryPanel, useLanguage } from './summary-parts.tsx';

/**
 * The visit completion matrix: scheduled visits × sites (and all of them), each cell the four counts
 * as coloured chips in a fixed order, named for screen readers and in the legend above.
 */
type VisitLine = SummaryResponse['visitMatrix'][number];

export function VisitMatrixSection({ data }: { data: SummaryResponse }) {
  const { t } = useTranslation('summary');
  const language = useLanguage();
  const totalOf = (cells: { counts: VisitCompletionCounts }[]): VisitCompletionCounts =>
    Object.fromEntries(
      visitCompletionStates.map((state) => [state, cells.reduce((sum, cell) => sum + cell.counts[state], 0)]),
    ) as VisitCompletionCounts;
  return (
    <SummaryPanel title={t('visits.title')} note={t('visits.note')}>
      <ul className={styles.legend} aria-label={t('visits.legend')}>
        {visitCompletionStates.map((state) => (
          <li key={state} className={styles.legendEntry}>
            <span className={styles.swatch} data-state={state} aria-hidden="true" />
            {t(`visits.states.${state}`)}
          </li>
        ))}
      </ul>
      <DataTable<VisitLine>
        id="summary-visit-matrix"
        label={t('visits.table')}
        columns={[
          visitColumn<VisitLine>(t('visit'), (visit) => visit.visitLabel[language]),
          ...data.sites.map(
            (site, index): DataTableColumn<VisitLine> => ({
              id: `site-${site.siteId}`,
              header: site.siteCode,
              hideable: false,
              cell: (visit) => {
                const cell = visit.cells.find((entry) => entry.siteId === site.siteId) ?? visit.cells[index];
                return cell ? <CompletionCell counts={cell.counts} /> : null;
              },
            }),
          ),
          ...(data.sites.length > 1
            ? [
                {
                  id: 'all',
                  header: t('allSitesColumn'),
                  hideable: false,
                  className: styles.totalCell,
                  cell: (visit: VisitLine) => <CompletionCell counts={totalOf(visit.cells)} />,
                },
              ]
            : []),
        ]}
        rows={data.visitMatrix}
        rowKey={(visit) => visit.visitKey}
      />
    </SummaryPanel>
  );
}

function CompletionCell({ counts }: { counts: VisitCompletionCounts }) {
  const { t } = useTranslation('summary');
  return (
    <span className={styles.chips}>
      {visitCompletionStates.map((state: VisitCompletionState) => (
        <span
          key={state}
          className={styles.chip}
          data-state={state}
          data-empty={counts[state] === 0 || undefined}
          title={t(`visits.states.${state}`)}
        >
          <span className={listStyles.visuallyHidden}>{t(`visits.states.${state}`)} </span>
          {counts[state]}
        </span>
      ))}
    </span>
  );
}
