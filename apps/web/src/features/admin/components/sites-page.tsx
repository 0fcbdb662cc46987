import type { SiteSummary } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('sites.columns.code')}</th>
                  <th scope="col">{t('sites.columns.name')}</th>
                  <th scope="col">{t('sites.columns.institutionNumber')}</th>
                  <th scope="col">{t('sites.columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {study.sites.length === 0 ? (
                  <tr>
                    <td colSpan={4} className={styles.empty}>
                      {t('noData')}
                    </td>
                  </tr>
                ) : (
                  study.sites.map((site) => (
                    <tr key={site.id}>
                      <td>{site.code}</td>
                      <td className={styles.wrap}>{site.name}</td>
                      <td>{site.institutionNumber}</td>
                      <td>
                        <button
                          type="button"
                          className={`${styles.button} ${styles.small}`}
                          aria-label={t('sites.editSite', { code: site.code })}
                          onClick={() => setDialog(site)}
                        >
                          {t('actions.edit')}
                        </button>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
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
