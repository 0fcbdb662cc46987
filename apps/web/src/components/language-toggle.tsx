import { useTranslation } from 'react-i18next';
import { changeLanguage, type SupportedLanguage, supportedLanguages } from '../i18n/i18n.ts';
import styles from './language-toggle.module.css';

/** The ko/en switch: every string changes at once and the choice is remembered. */
export function LanguageToggle({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const { t, i18n } = useTranslation();
  const current = i18n.language as SupportedLanguage;
  return (
    <fieldset
      className={`${styles.toggle} ${tone === 'dark' ? styles.dark : ''}`}
      aria-label={t('language.label')}
    >
      {supportedLanguages.map((language) => (
        <button
          key={language}
          type="button"
          className={styles.option}
          aria-pressed={current === language}
          lang={language}
          onClick={() => changeLanguage(language)}
        >
          {language.toUpperCase()}
        </button>
      ))}
    </fieldset>
  );
}
