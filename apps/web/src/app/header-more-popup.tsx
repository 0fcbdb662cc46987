import { useTranslation } from 'react-i18next';
import { IconPopup } from '../features/shell/components/icon-popup.tsx';
import { SupportDetails } from '../features/shell/components/support-popup.tsx';
import styles from './app-header.module.css';
import { VersionDetails } from './version-popup.tsx';

/**
 * A narrow header's "more" button: the version and support popups, folded together when the header
 * has no room for their own buttons (app-header.module.css decides which of the two shows).
 */
export function HeaderMorePopup() {
  const { t } = useTranslation('shell');
  return (
    <IconPopup
      id="header-more-popup"
      title={t('more.title')}
      buttonLabel={t('more.open')}
      buttonClassName={styles.iconButton}
      iconClassName={styles.moreIcon}
      icon={
        <>
          <circle cx="5.5" cy="12" r="1.7" />
          <circle cx="12" cy="12" r="1.7" />
          <circle cx="18.5" cy="12" r="1.7" />
        </>
      }
    >
      {(close) => (
        <div className={styles.moreSections}>
          <section aria-labelledby="header-more-version">
            <h3 id="header-more-version" className={styles.moreHeading}>
              {t('version.title')}
            </h3>
            <VersionDetails />
          </section>
          <section aria-labelledby="header-more-support">
            <h3 id="header-more-support" className={styles.moreHeading}>
              {t('support.title')}
            </h3>
            <SupportDetails onNavigate={close} />
          </section>
        </div>
      )}
    </IconPopup>
  );
}
