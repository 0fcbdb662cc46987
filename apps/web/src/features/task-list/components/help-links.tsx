import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import styles from './help-links.module.css';

/**
 * Links to the help pages (spec §2 task list). The task list belongs to no study, so eTraining
 * links to the manual's section on it, which explains each study's training page; the manual's
 * support section shows the contact.
 */
export function HelpLinks() {
  const { t } = useTranslation('taskList');
  const links = [
    { key: 'eTraining', to: { pathname: paths.manual, hash: '#etraining' } },
    { key: 'manual', to: { pathname: paths.manual } },
    { key: 'support', to: { pathname: paths.manual, hash: '#support' } },
    { key: 'terms', to: { pathname: paths.terms } },
  ] as const;
  return (
    <nav className={styles.links} aria-label={t('help.label')}>
      {links.map((link) => (
        <Link key={link.key} to={link.to} className={styles.link}>
          <span className={styles.name}>{t(`help.${link.key}`)}</span>
          <span className={styles.description}>{t(`help.${link.key}Description`)}</span>
        </Link>
      ))}
    </nav>
  );
}
