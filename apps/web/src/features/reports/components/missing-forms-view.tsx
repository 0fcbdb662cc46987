import type { MissingFormsReport } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { listingPager, siteAndSubjectColumns, useLanguage } from './report-parts.tsx';
import styles from './reports.module.css';

export function MissingFormsView({
  data,
  busy,
  studyId,
}: {
  data: MissingFormsReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  return (
    <div className={styles.views}>
      <ul className={styles.counts} aria-label={t('missingForms.bySite')}>
        {data.bySite.map((site) => (
          <li key={site.siteCode} className={styles.count}>
            <span className={styles.countValue}>{site.empty + site.incomplete}</span>
            <span className={styles.countLabel}>
              {site.siteCode} · {t('missingForms.split', { empty: site.empty, incomplete: site.incomplete })}
            </span>
          </li>
        ))}
      </ul>
      <DataTable<MissingFormsReport['rows'][number]>
        id="report-missing-forms"
        label={t('reports.missingForms.name')}
        columns={[
          ...siteAndSubjectColumns<MissingFormsReport['rows'][number]>(t, studyId),
          { id: 'visit', header: t('columns.visit'), cell: (row) => row.visitLabel[language] },
          { id: 'form', header: t('columns.form'), cell: (row) => row.formLabel[language] },
          {
            id: 'state',
            header: t('columns.state'),
            cell: (row) => (
              <span className={styles.badge} data-tone={row.state === 'empty' ? 'warning' : 'info'}>
                {t(`missingForms.states.${row.state}`)}
              </span>
            ),
          },
          { id: 'dueDate', header: t('missingForms.dueDate'), cell: (row) => row.dueDate },
          { id: 'days', header: t('missingForms.days'), numeric: true, cell: (row) => row.daysOutstanding },
        ]}
        rows={data.rows}
        rowKey={(row) => `${row.subjectPk}-${row.visitKey}-${row.formKey}`}
        busy={busy}
        emptyMessage={t('empty')}
        pager={listingPager(data)}
      />
    </div>
  );
}
