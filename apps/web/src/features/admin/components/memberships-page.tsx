import type { AdminStudy, Membership } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, sortedValueColumn } from '../../../components/data-table/data-table.tsx';
import { useDeleteMembership } from '../api/delete-membership.ts';
import { useMemberships } from '../api/get-memberships.ts';
import { roleNeedsSites, siteCodes } from '../lib/membership-sites.ts';
import { StudyAdminSection } from './admin-section.tsx';
import styles from './admin-ui.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { MembershipCreateDialog } from './membership-create-dialog.tsx';
import { MembershipSitesDialog } from './membership-sites-dialog.tsx';
import { QueryStatus } from './query-status.tsx';

/** `/admin/memberships`: who holds which role in one study, at which sites. */
export function MembershipsPage() {
  const { t } = useTranslation('admin');
  const [creating, setCreating] = useState(false);

  return (
    <StudyAdminSection
      heading={t('memberships.heading')}
      description={t('memberships.description')}
      addLabel={t('memberships.add')}
      onAdd={() => setCreating(true)}
    >
      {(study) => (
        <>
          {/* Keyed by study: dialogs and row state never carry over to another study. */}
          <MembershipTable key={study.id} study={study} />
          {creating && (
            <MembershipCreateDialog
              study={study}
              onOpenChange={(open) => {
                if (!open) setCreating(false);
              }}
            />
          )}
        </>
      )}
    </StudyAdminSection>
  );
}

function MembershipTable({ study }: { study: AdminStudy }) {
  const { t } = useTranslation('admin');
  const memberships = useMemberships(study.id);
  const deleteMembership = useDeleteMembership(study.id);
  const [editing, setEditing] = useState<Membership | null>(null);
  const [removing, setRemoving] = useState<Membership | null>(null);

  return (
    <>
      <QueryStatus
        isPending={memberships.isPending}
        error={memberships.error}
        onRetry={() => void memberships.refetch()}
      />
      {memberships.data && (
        <DataTable<Membership>
          id="admin-memberships"
          label={t('memberships.tableLabel')}
          columns={[
            sortedValueColumn(
              'userName',
              t('memberships.columns.userName'),
              (membership) => membership.userName,
              { hideable: false },
            ),
            sortedValueColumn(
              'userEmail',
              t('memberships.columns.userEmail'),
              (membership) => membership.userEmail,
            ),
            {
              id: 'role',
              header: t('memberships.columns.role'),
              sortValue: (membership) => membership.role,
              cell: (membership) => t(`roles.${membership.role}`),
            },
            {
              id: 'sites',
              header: t('memberships.columns.sites'),
              wrap: true,
              cell: (membership) =>
                roleNeedsSites(membership.role) ? (
                  siteCodes(membership.siteIds, study.sites).join(', ')
                ) : (
                  <span className={`${styles.badge} ${styles.badgeInfo}`}>{t('memberships.allSites')}</span>
                ),
            },
            {
              id: 'actions',
              header: t('memberships.columns.actions'),
              hideable: false,
              cell: (membership) => {
                const labels = { name: membership.userName, role: membership.role };
                return (
                  <div className={styles.rowActions}>
                    {roleNeedsSites(membership.role) && (
                      <button
                        type="button"
                        className={`${styles.button} ${styles.small}`}
                        aria-label={t('memberships.editSitesOf', labels)}
                        onClick={() => setEditing(membership)}
                      >
                        {t('memberships.editSites')}
                      </button>
                    )}
                    <button
                      type="button"
                      className={`${styles.button} ${styles.small} ${styles.dangerOutline}`}
                      aria-label={t('memberships.removeOf', labels)}
                      onClick={() => {
                        deleteMembership.reset();
                        setRemoving(membership);
                      }}
                    >
                      {t('memberships.remove')}
                    </button>
                  </div>
                );
              },
            },
          ]}
          rows={memberships.data}
          rowKey={(membership) => String(membership.id)}
          sorting={{ mode: 'client' }}
          fit
          emptyMessage={t('noData')}
        />
      )}
      {editing && (
        <MembershipSitesDialog
          study={study}
          membership={editing}
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t('memberships.removeTitle')}
        description={
          removing
            ? t('memberships.removeDescription', {
                name: removing.userName,
                role: removing.role,
                study: study.code,
              })
            : ''
        }
        confirmLabel={t('memberships.remove')}
        pending={deleteMembership.isPending}
        error={deleteMembership.error}
        onConfirm={() => {
          if (removing) deleteMembership.mutate(removing.id, { onSuccess: () => setRemoving(null) });
        }}
      />
    </>
  );
}
