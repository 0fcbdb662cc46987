import type { SiteSummary } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { useStudies } from '../api/get-studies.ts';
import styles from './admin-ui.module.css';
import { QueryStatus } from './query-status.tsx';
import { SiteDialog } from './site-dialog.tsx';
import { StudySelect, useSelectedStudy } from './study-select.tsx';

/** `/admin/sites`: the sites of one study, with add and edit. */
export function SitesPage() {
  const { t } = useTranslation('admin');
  const studies = useStudies();
  const study = useSelectedStudy(studies.data);
  // null: closed; 'new': adding; a site: editing it.
  const [dialog, setDialog] = useState<SiteSummary | 'new' | null>(null);
  const headingId = useId();

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHeader}>
        <div>
          <h2 id={headingId} className={styles.heading}>
            {t('sites.heading')}
          </h2>
          <p className={styles.description}>{t('sites.description')}</p>
        </div>
        {study && (
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            onClick={() => setDialog('new')}
          >
            {t('sites.add')}
          </button>
        )}
      </div>

      <QueryStatus
        isPending={studies.isPending}
        error={studies.error}
        onRetry={() => void studies.refetch()}
      />
      {studies.data && !study && <p className={styles.state}>{t('study.none')}</p>}
      {studies.data && study && (
        <>
          <div className={styles.toolbar}>
            <StudySelect studies={studies.data} selected={study} />
          </div>
          <DataTable<SiteSummary>
            id="admin-sites"
            label={t('sites.tableLabel')}
            columns={[
              {
                id: 'code',
                header: t('sites.columns.code'),
                hideable: false,
                sortValue: (site) => site.code,
                cell: (site) => site.code,
              },
              {
                id: 'name',
                header: t('sites.columns.name'),
                wrap: true,
                sortValue: (site) => site.name,
                cell: (site) => site.name,
              },
              {
                id: 'institutionNumber',
                header: t('sites.columns.institutionNumber'),
                sortValue: (site) => site.institutionNumber,
                cell: (site) => site.institutionNumber,
              },
              {
                id: 'actions',
                header: t('sites.columns.actions'),
                hideable: false,
                cell: (site) => (
                  <button
                    type="button"
                    className={`${styles.button} ${styles.small}`}
                    aria-label={t('sites.editSite', { code: site.code })}
                    onClick={() => setDialog(site)}
                  >
                    {t('actions.edit')}
                  </button>
                ),
              },
            ]}
            rows={study.sites}
            rowKey={(site) => String(site.id)}
            sorting={{ mode: 'client' }}
            fit
            emptyMessage={t('noData')}
          />
          {dialog !== null && (
            <SiteDialog
              study={study}
              site={dialog === 'new' ? undefined : dialog}
              onOpenChange={(open) => {
                if (!open) setDialog(null);
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
