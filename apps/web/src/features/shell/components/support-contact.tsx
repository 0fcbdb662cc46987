import { useTranslation } from 'react-i18next';
import { useAppInfo } from '../api/get-app-info.ts';
import styles from './shell-popups.module.css';

/** The installation's support address and phone (GET /api/app-info), as mailto/tel links. */
export function SupportContact() {
  const { t } = useTranslation('shell');
  const info = useAppInfo();
  if (info.isPending) return <p className={styles.muted}>{t('support.loading')}</p>;
  if (info.isError) return <p className={styles.error}>{info.error.message}</p>;
  const { supportEmail, supportPhone } = info.data;
  if (!supportEmail && !supportPhone) return <p className={styles.muted}>{t('support.notConfigured')}</p>;
  return (
    <dl className={styles.facts}>
      {supportEmail ? (
        <div>
          <dt>{t('support.email')}</dt>
          <dd>
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </dd>
        </div>
      ) : null}
      {supportPhone ? (
        <div>
          <dt>{t('support.phone')}</dt>
          <dd>
            <a href={`tel:${supportPhone.replace(/[^0-9+]/g, '')}`}>{supportPhone}</a>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
