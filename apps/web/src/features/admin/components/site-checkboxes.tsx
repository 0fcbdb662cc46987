import type { SiteSummary } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './admin-ui.module.css';

interface SiteCheckboxesProps {
  sites: readonly SiteSummary[];
  selected: readonly number[];
  onChange: (siteIds: number[]) => void;
  /** A key of the admin namespace, or undefined. */
  error?: string | undefined;
}

/** One checkbox per site of the study, grouped under a legend so screen readers announce the group. */
export function SiteCheckboxes({ sites, selected, onChange, error }: SiteCheckboxesProps) {
  const { t } = useTranslation('admin');
  const errorId = useId();
  if (sites.length === 0) return <p className={styles.alert}>{t('memberships.form.noSites')}</p>;
  return (
    <fieldset className={styles.field} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.label}>{t('memberships.form.sites')}</legend>
      <p className={styles.hint}>{t('memberships.form.sitesHint')}</p>
      <div className={styles.checkboxGroup}>
        {sites.map((site) => (
          <label key={site.id} className={styles.checkboxLabel}>
            <input
              type="checkbox"
              checked={selected.includes(site.id)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...selected, site.id]
                    : selected.filter((siteId) => siteId !== site.id),
                )
              }
            />
            {site.code} — {site.name}
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {t(error)}
        </p>
      )}
    </fieldset>
  );
}
