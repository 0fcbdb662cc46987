import type { AdminUser } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pagination, pageCount, usePageParam } from '../../../components/pagination.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useUsers } from '../api/get-users.ts';
import { filterUsers } from '../lib/filter-users.ts';
import { isLockedNow } from '../lib/lock-status.ts';
import styles from './admin-ui.module.css';
import { QueryStatus } from './query-status.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { ResetSecondFactorDialog } from './reset-second-factor-dialog.tsx';
import { TwoFactorSettingPanel } from './two-factor-setting-panel.tsx';
import { UserCreateDialog } from './user-create-dialog.tsx';
import { UserEditDialog } from './user-edit-dialog.tsx';

/** prototype-spec §9: 10 rows per page. */
const PAGE_SIZE = 10;

/**
 * `/admin/users`: every account, searchable by name or email, with create, edit, password reset and
 * two-factor reset; above the list the "two-factor required for ADMIN and DM" setting.
 */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const users = useUsers();
  const [pageParam, setPageParam] = usePageParam();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const [resettingSecondFactor, setResettingSecondFactor] = useState<AdminUser | null>(null);
  const searchId = useId();

  const all = users.data ?? [];
  const filtered = filterUsers(all, search);
  const page = Math.min(pageParam, Math.max(1, pageCount(filtered.length, PAGE_SIZE)));
  const rows = filtered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  // Looked up on every render so the edit dialog shows the saved state after each change.
  const editing = all.find((user) => user.id === editingId);

  return (
    <section className={styles.section} aria-labelledby={`${searchId}-heading`}>
      <div className={styles.sectionHeader}>
        <div>
          <h2 id={`${searchId}-heading`} className={styles.heading}>
            {t('users.heading')}
          </h2>
          <p className={styles.description}>{t('users.description')}</p>
        </div>
        <button
          type="button"
          className={`${styles.button} ${styles.primary}`}
          onClick={() => setCreating(true)}
        >
          {t('users.add')}
        </button>
      </div>

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
        <>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('users.columns.name')}</th>
                  <th scope="col">{t('users.columns.email')}</th>
                  <th scope="col">{t('users.columns.contact')}</th>
                  <th scope="col">{t('users.columns.status')}</th>
                  <th scope="col">{t('users.columns.admin')}</th>
                  <th scope="col">{t('users.columns.twoFactor')}</th>
                  <th scope="col">{t('users.columns.lockedUntil')}</th>
                  <th scope="col">{t('users.columns.lastLogin')}</th>
                  <th scope="col">{t('users.columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={9} className={styles.empty}>
                      {t('noData')}
                    </td>
                  </tr>
                ) : (
                  rows.map((user) => (
                    <tr key={user.id}>
                      <td>{user.name}</td>
                      <td>{user.email}</td>
                      <td>{user.contact || <span className={styles.muted}>{t('none')}</span>}</td>
                      <td>
                        <span
                          className={`${styles.badge} ${user.active ? styles.badgeGood : styles.badgeBad}`}
                        >
                          {t(user.active ? 'users.active' : 'users.inactive')}
                        </span>
                      </td>
                      <td>
                        {user.isAdmin ? (
                          <span className={`${styles.badge} ${styles.badgeInfo}`}>{t('yes')}</span>
                        ) : (
                          <span className={styles.muted}>{t('no')}</span>
                        )}
                      </td>
                      <td>
                        {user.secondFactorEnrolled ? (
                          // The reset sits next to the state it changes: only a user with a factor has one.
                          <div className={styles.twoFactorCell}>
                            <span className={`${styles.badge} ${styles.badgeGood}`}>
                              {t('users.twoFactorOn')}
                            </span>
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
                        )}
                      </td>
                      <td>
                        {isLockedNow(user.lockedUntil) ? (
                          <span className={`${styles.badge} ${styles.badgeBad}`}>
                            {formatDateTimeKst(user.lockedUntil)}
                          </span>
                        ) : (
                          <span className={styles.muted}>{t('none')}</span>
                        )}
                      </td>
                      <td>
                        {formatDateTimeKst(user.lastLoginAt) || (
                          <span className={styles.muted}>{t('none')}</span>
                        )}
                      </td>
                      <td>
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
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <Pagination total={filtered.length} pageSize={PAGE_SIZE} />
        </>
      )}

      <UserCreateDialog open={creating} onOpenChange={setCreating} />
      {editing && (
        <UserEditDialog
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
    </section>
  );
}
