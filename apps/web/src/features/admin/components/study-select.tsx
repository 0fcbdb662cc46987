import type { AdminStudy } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import styles from './admin-ui.module.css';

/** The study query parameter: kept in the URL so a reload, a shared link and the tabs keep the choice. */
export const STUDY_PARAM = 'study';

/** The study chosen in the URL, or the first study when none (or an unknown one) is chosen. */
export function useSelectedStudy(studies: readonly AdminStudy[] | undefined): AdminStudy | undefined {
  const [searchParams] = useSearchParams();
  const chosen = Number(searchParams.get(STUDY_PARAM));
  return studies?.find((study) => study.id === chosen) ?? studies?.[0];
}

export function StudySelect({ studies, selected }: { studies: readonly AdminStudy[]; selected: AdminStudy }) {
  const { t } = useTranslation('admin');
  const [, setSearchParams] = useSearchParams();
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {t('study.label')}
      </label>
      <select
        id={id}
        className={`${styles.select} ${styles.studySelect}`}
        value={selected.id}
        onChange={(event) => setSearchParams({ [STUDY_PARAM]: event.target.value }, { replace: true })}
      >
        {studies.map((study) => (
          <option key={study.id} value={study.id}>
            {study.code} — {study.title}
          </option>
        ))}
      </select>
    </div>
  );
}
