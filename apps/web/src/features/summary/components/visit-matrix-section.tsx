import {
  type SummaryResponse,
  type VisitCompletionCounts,
  type VisitCompletionState,
  visitCompletionStates,
} from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { ListTable, listStyles } from '../../../components/list-page.tsx';
import styles from './summary.module.css';
import { SummaryPanel, useLanguage } from './summary-parts.tsx';

/**
 * The visit completion matrix: scheduled visits × sites (and all of them), each cell the four counts
 * as coloured chips in a fixed order, named for screen readers and in the legend above.
 */
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
      <ListTable
        label={t('visits.table')}
        busy={false}
        head={
          <>
            <th scope="col">{t('visit')}</th>
            {data.sites.map((site) => (
              <th key={site.siteId} scope="col">
                {site.siteCode}
              </th>
            ))}
            {data.sites.length > 1 ? <th scope="col">{t('allSitesColumn')}</th> : null}
          </>
        }
      >
        {data.visitMatrix.map((visit) => (
          <tr key={visit.visitKey}>
            <th scope="row" className={styles.visitName}>
              {visit.visitLabel[language]}
            </th>
            {visit.cells.map((cell) => (
              <td key={cell.siteId}>
                <CompletionCell counts={cell.counts} />
              </td>
            ))}
            {data.sites.length > 1 ? (
              <td className={styles.totalCell}>
                <CompletionCell counts={totalOf(visit.cells)} />
              </td>
            ) : null}
          </tr>
        ))}
      </ListTable>
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
