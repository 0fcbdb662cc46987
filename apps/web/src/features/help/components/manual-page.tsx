import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import styles from './help-page.module.css';

interface ManualSection {
  id: string;
  title: string;
  paragraphs: string[];
  steps?: string[];
}

/**
 * `/help/manual`: the online manual of the screens. eTraining and support are sections of it
 * (linked with #etraining and #support from the task list, which belongs to no study); the app
 * layer puts the installation's support contact in `supportContact`.
 */
export function ManualPage({ supportContact }: { supportContact: ReactNode }) {
  const { t } = useTranslation('help');
  const { hash } = useLocation();
  const sections = t('manual.sections', { returnObjects: true }) as ManualSection[];

  // In-page links (#support) from other pages: the router does not scroll to them by itself.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [hash]);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{t('manual.title')}</h1>
        <p className={styles.lead}>{t('manual.lead')}</p>
      </header>
      <div className={styles.layout}>
        <nav className={styles.toc} aria-label={t('manual.contents')}>
          <p className={styles.tocTitle}>{t('manual.contents')}</p>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <div className={styles.article}>
          {sections.map((section) => (
            <section key={section.id} id={section.id} className={styles.section}>
              <h2>{section.title}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {section.steps ? (
                <ol>
                  {section.steps.map((step) => (
                    <li key={step}>{step}</li>
                  ))}
                </ol>
              ) : null}
              {section.id === 'support' ? <div className={styles.contact}>{supportContact}</div> : null}
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
