import { VisuallyHidden } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { passwordRuleStates } from '../lib/password-rules.ts';
import styles from './admin-ui.module.css';

/** Live feedback under a new password: each rule of the shared policy, met or not, as the user types. */
export function PasswordRulesList({ password, email }: { password: string; email: string }) {
  const { t } = useTranslation('admin');
  return (
    <ul className={styles.rules} aria-label={t('users.form.passwordRulesLabel')}>
      {passwordRuleStates(password, email).map(({ rule, met }) => (
        <li key={rule} className={met ? styles.ruleMet : styles.ruleNotMet}>
          <span aria-hidden="true">{met ? '✓ ' : '○ '}</span>
          {t(`users.passwordRules.${rule}`)}
          <VisuallyHidden.Root> ({t(met ? 'users.ruleMet' : 'users.ruleNotMet')})</VisuallyHidden.Root>
        </li>
      ))}
    </ul>
  );
}
