import type { SiteSummary } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, sortedValueColumn } from '../../../components/data-table/data-table.tsx';
import { StudyAdminSection } from './admin-section.tsx';
import styles from './admin-ui.module.css';
import { SiteDialog } from './site-dialog.tsx';

/** `/admin/sites`: the sites of one study, with add and edit. */
export function SitesPage() {
  const { t } = useTranslation('admin');
  // null: closed; 'new': adding; a site: editing it.
  const [dialog, setDialog] = useState<SiteSummary | 'new' | null>(null);

  return (
    <StudyAdminSection
      heading={t('sites.heading')}
      description={t('sites.description')}
      addLabel={t('sites.add')}
      onAdd={() => setDialog('new')}
    >
      {(study) => (
        <>
          <DataTable<SiteSummary>
            id="admin-sites"
            label={t('sites.tableLabel')}
            columns={[
              sortedValueColumn('code', t('sites.columns.code'), (site) => site.code, { hideable: false }),
              sortedValueColumn('name', t('sites.columns.name'), (site) => site.name, { wrap: true }),
              sortedValueColumn(
                'institutionNumber',
                t('sites.columns.institutionNumber'),
                (site) => site.institutionNumber,
              ),
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
    </StudyAdminSection>
  );
}
