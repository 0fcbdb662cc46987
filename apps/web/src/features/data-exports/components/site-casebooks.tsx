import { type SiteSummary, siteCasebooksZipPath } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '../../../components/button.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import styles from './data.module.css';

/**
 * A site's casebooks — one PDF per subject, in a ZIP the server streams as it prints them — for the
 * sponsor's archive or an inspection. A plain download link: the browser saves the stream to disk.
 */
export function SiteCasebooks({ studyId, sites }: { studyId: number; sites: readonly SiteSummary[] }) {
  const { t, i18n } = useTranslation('data');
  const id = useId();
  const [siteId, setSiteId] = useState<number | null>(sites[0]?.id ?? null);
  const [language, setLanguage] = useState<'ko' | 'en'>(i18n.language === 'en' ? 'en' : 'ko');
  const [audit, setAudit] = useState(false);
  if (sites.length === 0) return null;
  return (
    <section className={`${listStyles.card} ${styles.form}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.formTitle}>
        {t('casebooks.title')}
      </h2>
      <p className={styles.hint}>{t('casebooks.hint')}</p>
      <div className={styles.fields}>
        <label className={styles.fieldset}>
          <span className={listStyles.label}>{t('casebooks.site')}</span>
          <select value={siteId ?? ''} onChange={(event) => setSiteId(Number(event.target.value))}>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.code} {site.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.fieldset}>
          <span className={listStyles.label}>{t('casebooks.language')}</span>
          <select
            value={language}
            onChange={(event) => setLanguage(event.target.value === 'en' ? 'en' : 'ko')}
          >
            <option value="ko">{t('labels.ko')}</option>
            <option value="en">{t('labels.en')}</option>
          </select>
        </label>
        <label className={styles.choice}>
          <input type="checkbox" checked={audit} onChange={() => setAudit(!audit)} />
          {t('casebooks.auditTrail')}
        </label>
        <div className={styles.actions}>
          {siteId !== null && (
            <a
              className={buttonClassName({ variant: 'secondary' })}
              href={siteCasebooksZipPath(studyId, siteId, { lang: language, audit })}
              download
            >
              {t('casebooks.download')}
            </a>
          )}
        </div>
      </div>
    </section>
  );
}
