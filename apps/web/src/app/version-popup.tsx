import { useTranslation } from 'react-i18next';
import { SidePopup } from '../components/side-popup.tsx';
import { useAppInfo } from '../features/shell/api/get-app-info.ts';
import styles from './app-header.module.css';
import { productReleaseDate, productVersion } from './product-info.ts';

/**
 * The header's version popup (prototype-spec §2): version and last release date, as the server
 * reports them (GET /api/app-info); the values built into this page stand in until it answers.
 */
export function VersionPopup() {
  const { t } = useTranslation('shell');
  return (
    <SidePopup
      id="version-popup"
      title={t('version.title')}
      trigger={
        <button type="button" className={styles.iconButton} aria-label={t('version.title')}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 11v6M12 7.5v.5" />
          </svg>
        </button>
      }
    >
      <VersionDetails />
    </SidePopup>
  );
}

/** Version and last release date (the version popup's content; also in the header's "more" popup). */
export function VersionDetails() {
  const { t } = useTranslation('shell');
  const info = useAppInfo();
  return (
    <dl className={styles.versionList}>
      <div>
        <dt>{t('version.version')}</dt>
        <dd data-testid="product-version">{info.data?.version ?? productVersion}</dd>
      </div>
      <div>
        <dt>{t('version.releaseDate')}</dt>
        <dd>{info.data?.releaseDate ?? productReleaseDate}</dd>
      </div>
    </dl>
  );
}
