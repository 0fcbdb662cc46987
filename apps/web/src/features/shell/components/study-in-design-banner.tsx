import { useTranslation } from 'react-i18next';
import styles from './study-in-design-banner.module.css';

/**
 * Above every page of a study still in design (issue 45): only its designers see the study, and it
 * takes no subjects until an administrator takes it live from the administration's study list.
 */
export function StudyInDesignBanner() {
  const { t } = useTranslation('shell');
  return (
    <p className={styles.banner} role="note">
      <strong>{t('inDesign.title')}</strong> {t('inDesign.description')}
    </p>
  );
}
