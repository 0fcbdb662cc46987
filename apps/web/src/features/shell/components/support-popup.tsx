import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { IconPopup } from './icon-popup.tsx';
import styles from './shell-popups.module.css';
import { SupportContact } from './support-contact.tsx';

/** The header's support button (spec §2): whom to contact, and the online manual. */
export function SupportPopup() {
  const { t } = useTranslation('shell');
  return (
    <IconPopup
      id="support-popup"
      title={t('support.title')}
      icon={
        <path d="M4 14v-2a8 8 0 0 1 16 0v2M4 14h3v5H5a1 1 0 0 1-1-1zM20 14h-3v5h2a1 1 0 0 0 1-1zM17 19c0 1.5-2 2-5 2" />
      }
    >
      {(close) => <SupportDetails onNavigate={close} />}
    </IconPopup>
  );
}

/** Whom to contact and the help pages (the support popup's content; also in the header's "more" popup). */
export function SupportDetails({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <>
      <p className={styles.lead}>{t('support.description')}</p>
      <SupportContact />
      <div className={styles.links}>
        <Link to={paths.manual} onClick={onNavigate}>
          {t('support.manual')}
        </Link>
        <Link to={paths.terms} onClick={onNavigate}>
          {t('support.terms')}
        </Link>
      </div>
    </>
  );
}
