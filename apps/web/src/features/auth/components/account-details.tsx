import type { MeResponse } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { studyTitleIn } from '../../../lib/me.ts';
import styles from './account-details.module.css';
import { ContactEditor } from './contact-editor.tsx';

/**
 * What the user popup and the account dialog show (prototype-spec §2 "User popup"): real name,
 * access authority (roles per study, from the server), last access, email and an editable contact.
 */
export function AccountDetails({ me }: { me: MeResponse }) {
  const { t, i18n } = useTranslation('auth');
  const { user, memberships } = me;
  return (
    <dl className={styles.details}>
      <div className={styles.row}>
        <dt>{t('account.name')}</dt>
        <dd data-testid="account-name">{user.name}</dd>
      </div>
      <div className={styles.row}>
        <dt>{t('account.authority')}</dt>
        <dd>
          <ul className={styles.authorities}>
            {user.isAdmin ? (
              <li>
                <span className={`${styles.role} ${styles.admin}`}>{t('account.systemAdmin')}</span>
              </li>
            ) : null}
            {memberships.map((membership) => (
              <li key={membership.studyId} className={styles.membership}>
                <span className={styles.study} title={studyTitleIn(membership, i18n.language)}>
                  {membership.studyCode}
                </span>
                {membership.roles.map((role) => (
                  <span key={role} className={styles.role}>
                    <span className={styles.roleCode}>{role}</span>
                    <span className={styles.roleName}>{t(`roles.${role}`)}</span>
                  </span>
                ))}
              </li>
            ))}
            {memberships.length === 0 && !user.isAdmin ? <li>{t('account.noStudies')}</li> : null}
          </ul>
        </dd>
      </div>
      <div className={styles.row}>
        <dt>{t('account.lastAccess')}</dt>
        <dd>
          {user.previousLoginAt ? (
            <time dateTime={user.previousLoginAt}>{formatDateTimeKst(user.previousLoginAt)}</time>
          ) : (
            <span className={styles.muted}>{t('account.firstLogin')}</span>
          )}
        </dd>
      </div>
      <div className={styles.row}>
        <dt>{t('account.email')}</dt>
        <dd className={styles.email}>{user.email}</dd>
      </div>
      <div className={styles.row}>
        <dt>{t('account.contact')}</dt>
        <dd>
          <ContactEditor contact={user.contact} />
        </dd>
      </div>
    </dl>
  );
}
