import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import styles from './admin-ui.module.css';

interface QueryStatusProps {
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}

/** Loading and load-failure states of a page's data; renders nothing once the data is there. */
export function QueryStatus({ isPending, error, onRetry }: QueryStatusProps) {
  const { t } = useTranslation('admin');
  if (error) {
    return (
      <div className={styles.state} role="alert">
        <h2>{t('loadFailed')}</h2>
        {error instanceof ApiError && <p>{error.message}</p>}
        <button type="button" className={styles.button} onClick={onRetry}>
          {t('retry')}
        </button>
      </div>
    );
  }
  if (isPending) {
    return (
      <p className={styles.state} role="status">
        {t('loading')}
      </p>
    );
  }
  return null;
}
