import { useTranslation } from 'react-i18next';
import styles from './help-page.module.css';

interface TermsArticle {
  title: string;
  paragraphs: string[];
}

/** `/help/terms`: the terms of use of this installation. */
export function TermsPage() {
  const { t } = useTranslation('help');
  const articles = t('terms.articles', { returnObjects: true }) as TermsArticle[];
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{t('terms.title')}</h1>
        <p className={styles.lead}>{t('terms.lead')}</p>
      </header>
      <div className={styles.article}>
        {articles.map((article) => (
          <section key={article.title} className={styles.section}>
            <h2>{article.title}</h2>
            {article.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}
