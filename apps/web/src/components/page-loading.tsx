import { useTranslation } from 'react-i18next';

/**
 * The page-wide loading state: while the router loads a page's code, while its translations load,
 * while `me` is asked. The same look as the one index.html shows before any script runs (its
 * inline `cdms-loading` classes), so the first paint and this state are one screen, never blank.
 */
export function PageLoading({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  return (
    <div className="cdms-loading" role="status">
      <span className="cdms-loading-spinner" aria-hidden="true" />
      <p>{label ?? t('loading')}</p>
    </div>
  );
}
