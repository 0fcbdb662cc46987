import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { useAuth } from '../features/auth/components/auth-provider.tsx';
import { LoginRequired } from '../features/auth/components/login-required.tsx';
import styles from './protected-route.module.css';

// Only a user whom the system setting requires to enrol sees this page: the others do not load it
// (nor the two-factor dialog's code it shares). While it loads, the root's Suspense shows PageLoading.
const SecondFactorEnrolmentRequired = lazy(async () => ({
  default: (await import('../features/auth/components/second-factor-enrolment-required.tsx'))
    .SecondFactorEnrolmentRequired,
}));

/**
 * Every page except `/` and `/404` needs a signed-in user (prototype-spec §6). While `me` loads the
 * page says it is authenticating; without a session the login confirmation opens. A user who must
 * enrol a second factor first sees only the enrolment page. While a session ends, the page is gone.
 */
export function ProtectedRoute() {
  const { t } = useTranslation('shell');
  const { me, status, leaving, error, retry } = useAuth();
  const location = useLocation();

  // Leaving (logout, an ended session): the page goes first, before its data and `me` are dropped.
  if (leaving) return <PageLoading />;
  // The system setting requires a second factor of this user: nothing else until it is enrolled.
  if (status === 'authenticated' && me?.user.secondFactorEnrolmentRequired) {
    return <SecondFactorEnrolmentRequired />;
  }
  if (status === 'authenticated') return <Outlet />;

  if (status === 'error') {
    return (
      <div className={styles.wall} role="alert">
        <p>{error?.message}</p>
        <button type="button" className={styles.retry} onClick={retry}>
          {t('auth.retry')}
        </button>
      </div>
    );
  }

  if (status === 'loading') return <PageLoading label={t('auth.authenticating')} />;
  return (
    <div className={styles.wall}>
      <p>{t('auth.required')}</p>
      <LoginRequired returnTo={`${location.pathname}${location.search}`} />
    </div>
  );
}
