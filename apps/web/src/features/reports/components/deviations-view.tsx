import type { ProtocolDeviationsReport } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { listingPager, siteAndSubjectColumns, useLanguage } from './report-parts.tsx';
import styles from './reports.module.css';

export function DeviationsView({
  data,
  busy,
  studyId,
}: {
  data: ProtocolDeviationsReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const daysText = (row: ProtocolDeviationsReport['rows'][number]) => {
    if (row.days === null) return '–';
    if (row.kind === 'outOfWindow')
      return t(row.days < 0 ? 'deviationDays.early' : 'deviationDays.late', { count: Math.abs(row.days) });
    return t('deviationDays.fromVisitDate', { count: row.days });
  };
  return (
    <div className={styles.views}>
      <ul className={styles.counts} aria-label={t('deviationsByKind')}>
        {data.byKind.map((line) => (
          <li key={line.kind} className={styles.count}>
            <span className={styles.countValue}>{line.count}</span>
            <span className={styles.countLabel}>{t(`deviations.${line.kind}`)}</span>
          </li>
        ))}
      </ul>
      <DataTable<ProtocolDeviationsReport['rows'][number]>
        id="report-deviations"
        label={t('reports.protocolDeviations.name')}
        columns={[
          ...siteAndSubjectColumns<ProtocolDeviationsReport['rows'][number]>(t, studyId),
          { id: 'kind', header: t('columns.kind'), cell: (row) => t(`deviations.${row.kind}`) },
          { id: 'visit', header: t('columns.visit'), cell: (row) => row.visitLabel[language] },
          { id: 'date', header: t('columns.date'), cell: (row) => row.date ?? '–' },
          { id: 'days', header: t('columns.days'), numeric: true, cell: daysText },
          { id: 'detail', header: t('columns.detail'), cell: (row) => row.detail[language] },
        ]}
        rows={data.rows}
        rowKey={(row) => `${row.subjectPk}-${row.kind}-${row.visitKey}-${row.date}-${row.detail.en}`}
        busy={busy}
        emptyMessage={t('empty')}
        pager={listingPager(data)}
      />
    </div>
  );
}
