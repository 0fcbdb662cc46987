import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import styles from './designer.module.css';

/** The head of a designer view opened from the toolbar or the schedule: back to the schedule, and its title. */
export function ViewHeader({
  title,
  titleId,
  onClose,
}: {
  title: ReactNode;
  /** For a view that is a region named by its title. */
  titleId?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('designer');
  return (
    <div className={styles.formEditorHeader}>
      <Button variant="secondary" size="sm" onClick={onClose}>
        {t('form.back')}
      </Button>
      <h2 id={titleId} className={styles.formEditorTitle}>
        {title}
      </h2>
    </div>
  );
}
