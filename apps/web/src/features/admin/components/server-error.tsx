import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { issuesFromDetails } from '../lib/password-rules.ts';
import styles from './admin-ui.module.css';

/**
 * A failed request, shown next to the form that sent it. The server already wrote the message in
 * the user's language (api-client sends Accept-Language); a password refusal also lists its rules.
 */
export function ServerError({ error }: { error: unknown }) {
  const { t } = useTranslation('admin');
  const { t: tCommon } = useTranslation('common');
  if (!error) return null;
  if (!(error instanceof ApiError)) {
    return (
      <p className={styles.alert} role="alert">
        {tCommon('apiErrors.unknown')}
      </p>
    );
  }
  const issues = error.code === 'password_policy' ? issuesFromDetails(error.details) : [];
  return (
    <div className={styles.alert} role="alert">
      {error.message}
      {issues.length > 0 && (
        <ul>
          {issues.map((issue) => (
            <li key={issue}>{t(`users.passwordRules.${issue}`)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
