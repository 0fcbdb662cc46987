import type { LocalizedText } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { missingTranslation } from '../lib/designer-state.ts';
import styles from './designer.module.css';

/** The "missing translation" marker (only an empty language counts) and the problem marker. */
export function Markers({ label, problem = false }: { label: LocalizedText; problem?: boolean }) {
  const { t } = useTranslation('designer');
  const missing = missingTranslation(label);
  return (
    <>
      {missing.length > 0 ? (
        <span className={styles.missing}>
          {t('grid.missingIn', { languages: missing.map((language) => language.toUpperCase()).join(', ') })}
        </span>
      ) : null}
      {problem ? <span className={styles.problemMark}>{t('grid.problem')}</span> : null}
    </>
  );
}
