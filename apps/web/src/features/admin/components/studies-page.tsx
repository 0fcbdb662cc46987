import type { AdminStudy } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, sortedValueColumn } from '../../../components/data-table/data-table.tsx';
import { useStudies } from '../api/get-studies.ts';
import { AdminSection } from './admin-section.tsx';
import styles from './admin-ui.module.css';
import { DefinitionDialog } from './definition-dialog.tsx';
import { GoLiveDialog } from './go-live-dialog.tsx';
import { QueryStatus } from './query-status.tsx';
import { StudyCreateDialog } from './study-create-dialog.tsx';

const statusBadge: Record<AdminStudy['status'], string> = {
  design: styles.badgeInfo ?? '',
  active: styles.badgeGood ?? '',
  ended: '',
};

/** The dialog open, by study id: the dialog shows the study as the list has it now (after an upload too). */
type OpenDialog = { kind: 'create' } | { kind: 'definition' | 'goLive'; studyId: number } | null;

/**
 * `/admin/studies` (issue 45): every study with its state. A new one starts in design; its design
 * document is uploaded here (or by its DM), and an administrator takes it live with a signature
 * once it has a definition and a site.
 */
export function StudiesPage() {
  const { t } = useTranslation('admin');
  const studies = useStudies();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const openStudy =
    dialog && dialog.kind !== 'create'
      ? studies.data?.find((study) => study.id === dialog.studyId)
      : undefined;
  const close = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <AdminSection
      heading={t('studies.heading')}
      description={t('studies.description')}
      addLabel={t('studies.add')}
      onAdd={() => setDialog({ kind: 'create' })}
    >
      <QueryStatus
        isPending={studies.isPending}
        error={studies.error}
        onRetry={() => void studies.refetch()}
      />
      {studies.data && (
        <DataTable<AdminStudy>
          id="admin-studies"
          label={t('studies.tableLabel')}
          columns={[
            sortedValueColumn('code', t('studies.columns.code'), (study) => study.code, { hideable: false }),
            {
              id: 'title',
              header: t('studies.columns.title'),
              wrap: true,
              cell: (study) => (
                <>
                  {study.title}
                  {study.titleEn && <span className={styles.secondLine}>{study.titleEn}</span>}
                </>
              ),
            },
            sortedValueColumn('kind', t('studies.columns.kind'), (study) => t(`studies.kinds.${study.kind}`)),
            {
              id: 'status',
              header: t('studies.columns.status'),
              cell: (study) => (
                <span className={`${styles.badge} ${statusBadge[study.status]}`}>
                  {t(`studies.statuses.${study.status}`)}
                </span>
              ),
            },
            sortedValueColumn('sites', t('studies.columns.sites'), (study) => study.sites.length),
            {
              id: 'numbers',
              header: t('studies.columns.numbers'),
              cell: (study) => (
                <>
                  {t('studies.screeningFormatShort', { format: study.screeningNumberFormat })}
                  <span className={styles.secondLine}>
                    {study.randomizationEnabled
                      ? t('studies.randomizationOn', { format: study.randomizationNumberFormat })
                      : t('studies.randomizationOff')}
                  </span>
                </>
              ),
            },
            {
              id: 'actions',
              header: t('studies.columns.actions'),
              hideable: false,
              cell: (study) => (
                <div className={styles.rowActions}>
                  <button
                    type="button"
                    className={`${styles.button} ${styles.small}`}
                    aria-label={t('studies.definitionOf', { code: study.code })}
                    onClick={() => setDialog({ kind: 'definition', studyId: study.id })}
                  >
                    {t('studies.definitionButton')}
                  </button>
                  {study.status === 'design' && (
                    <button
                      type="button"
                      className={`${styles.button} ${styles.small} ${styles.primary}`}
                      aria-label={t('studies.goLiveOf', { code: study.code })}
                      // Go-live needs a definition and a site: the button says what is missing.
                      disabled={!study.hasDefinition || study.sites.length === 0}
                      title={
                        !study.hasDefinition
                          ? t('studies.needsDefinition')
                          : study.sites.length === 0
                            ? t('studies.needsSite')
                            : undefined
                      }
                      onClick={() => setDialog({ kind: 'goLive', studyId: study.id })}
                    >
                      {t('studies.goLiveButton')}
                    </button>
                  )}
                </div>
              ),
            },
          ]}
          rows={studies.data}
          rowKey={(study) => String(study.id)}
          sorting={{ mode: 'client' }}
          fit
          emptyMessage={t('noData')}
        />
      )}
      {dialog?.kind === 'create' && <StudyCreateDialog onOpenChange={close} />}
      {dialog?.kind === 'definition' && openStudy && (
        <DefinitionDialog study={openStudy} onOpenChange={close} />
      )}
      {dialog?.kind === 'goLive' && openStudy && <GoLiveDialog study={openStudy} onOpenChange={close} />}
    </AdminSection>
  );
}
