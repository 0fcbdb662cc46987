import type { AdminUser } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  type DataTableColumn,
  sortedValueColumn,
} from '../../../components/data-table/data-table.tsx';
import { usePageParam } from '../../../components/pagination.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useUsers } from '../api/get-users.ts';
import { filterUsers } from '../lib/filter-users.ts';
import { isLockedNow } from '../lib/lock-status.ts';
import { AdminSection } from './admin-section.tsx';
import styles from './admin-ui.module.css';
import { QueryStatus } from './query-status.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { ResetSecondFactorDialog } from './reset-second-factor-dialog.tsx';
import { TwoFactorSettingPanel } from './two-factor-setting-panel.tsx';
import { UserDialog } from './user-dialog.tsx';

/** prototype-spec §9: 10 rows per page. */
const PAGE_SIZE = 10;

/**
 * `/admin/users`: every account, searchable by name or email, with create, edit, password reset and
 * two-factor reset; above the list the "two-factor required for ADMIN and DM" setting.
 */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const users = useUsers();
  const [, setPageParam] = usePageParam();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const [resettingSecondFactor, setResettingSecondFactor] = useState<AdminUser | null>(null);
  const searchId = useId();

  const all = users.data ?? [];
  const filtered = filterUsers(all, search);
  // Looked up on every render so the edit dialog shows the saved state after each change.
  const editing = all.find((user) => user.id === editingId);
  const none = <span className={styles.muted}>{t('none')}</span>;

  const columns: DataTableColumn<AdminUser>[] = [
    sortedValueColumn('name', t('users.columns.name'), (user) => user.name, { hideable: false }),
    sortedValueColumn('email', t('users.columns.email'), (user) => user.email),
    { id: 'contact', header: t('users.columns.contact'), cell: (user) => user.contact || none },
    {
      id: 'status',
      header: t('users.columns.status'),
      sortValue: (user) => (user.active ? 0 : 1),
      cell: (user) => (
        <span className={`${styles.badge} ${user.active ? styles.badgeGood : styles.badgeBad}`}>
          {t(user.active ? 'users.active' : 'users.inactive')}
        </span>
      ),
    },
    {
      id: 'admin',
      header: t('users.columns.admin'),
      sortValue: (user) => (user.isAdmin ? 0 : 1),
      cell: (user) =>
        user.isAdmin ? (
          <span className={`${styles.badge} ${styles.badgeInfo}`}>{t('yes')}</span>
        ) : (
          <span className={styles.muted}>{t('no')}</span>
        ),
    },
    {
      id: 'twoFactor',
      header: t('users.columns.twoFactor'),
      sortValue: (user) => (user.secondFactorEnrolled ? 0 : 1),
      cell: (user) =>
        user.secondFactorEnrolled ? (
          // The reset sits next to the state it changes: only a user with a factor has one.
          <div className={styles.twoFactorCell}>
            <span className={`${styles.badge} ${styles.badgeGood}`}>{t('users.twoFactorOn')}</span>
            <button
              type="button"
              className={`${styles.button} ${styles.small}`}
              aria-label={t('users.resetTwoFactorOf', { name: user.name })}
              onClick={() => setResettingSecondFactor(user)}
            >
              {t('users.resetTwoFactor.action')}
            </button>
          </div>
        ) : (
          <span className={styles.muted}>{t('users.twoFactorOff')}</span>
        ),
    },
    {
      id: 'lockedUntil',
      header: t('users.columns.lockedUntil'),
      cell: (user) =>
        isLockedNow(user.lockedUntil) ? (
          <span className={`${styles.badge} ${styles.badgeBad}`}>{formatDateTimeKst(user.lockedUntil)}</span>
        ) : (
          none
        ),
    },
    {
      id: 'lastLogin',
      header: t('users.columns.lastLogin'),
      sortValue: (user) => user.lastLoginAt ?? '',
      cell: (user) => formatDateTimeKst(user.lastLoginAt) || none,
    },
    {
      id: 'actions',
      header: t('users.columns.actions'),
      hideable: false,
      cell: (user) => (
        <div className={styles.rowActions}>
          <button
            type="button"
            className={`${styles.button} ${styles.small}`}
            aria-label={t('users.editUser', { name: user.name })}
            onClick={() => setEditingId(user.id)}
          >
            {t('actions.edit')}
          </button>
          <button
            type="button"
            className={`${styles.button} ${styles.small}`}
            aria-label={t('users.resetPasswordOf', { name: user.name })}
            onClick={() => setResetting(user)}
          >
            {t('users.resetPassword')}
          </button>
        </div>
      ),
    },
  ];

  return (
    <AdminSection
      heading={t('users.heading')}
      description={t('users.description')}
      addLabel={t('users.add')}
      onAdd={() => setCreating(true)}
    >
      <TwoFactorSettingPanel />

      <div className={styles.toolbar}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={searchId}>
            {t('users.searchLabel')}
          </label>
          <input
            id={searchId}
            type="search"
            className={`${styles.input} ${styles.search}`}
            placeholder={t('users.searchPlaceholder')}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPageParam(1, { replace: true }); // a new search starts on its first page
            }}
          />
        </div>
        {users.data && (
          <p className={styles.count} aria-live="polite">
            {t('users.count', { shown: filtered.length, total: all.length })}
          </p>
        )}
      </div>

      <QueryStatus isPending={users.isPending} error={users.error} onRetry={() => void users.refetch()} />
      {users.data && (
        <DataTable<AdminUser>
          id="admin-users"
          label={t('users.tableLabel')}
          columns={columns}
          rows={filtered}
          rowKey={(user) => String(user.id)}
          sorting={{ mode: 'client' }}
          emptyMessage={t('noData')}
          pager={{ total: filtered.length, pageSize: PAGE_SIZE, client: true }}
        />
      )}

      <UserDialog user={null} open={creating} onOpenChange={setCreating} />
      {editing && (
        <UserDialog
          user={editing}
          open
          onOpenChange={(open) => {
            if (!open) setEditingId(null);
          }}
        />
      )}
      {resetting && (
        <ResetPasswordDialog key={resetting.id} user={resetting} onClose={() => setResetting(null)} />
      )}
      {resettingSecondFactor && (
        <ResetSecondFactorDialog
          key={resettingSecondFactor.id}
          user={resettingSecondFactor}
          onClose={() => setResettingSecondFactor(null)}
        />
      )}
    </AdminSection>
  );
}
