import { Toast } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import styles from './toast.module.css';
import { TOAST_DURATION_MS, type ToastEntry } from './toast.tsx';

/** The toasts on screen (Radix Toast), loaded by `ToastProvider` when the first one is shown. */
export function ToastList({
  toasts,
  onRemove,
}: {
  toasts: readonly ToastEntry[];
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation('ui');
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="down" label={t('toast.label')}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`${styles.toast} ${styles[toast.tone]}`}
          type={toast.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) onRemove(toast.id);
          }}
        >
          <Toast.Description className={styles.message}>{toast.message}</Toast.Description>
          <Toast.Close className={styles.close} aria-label={t('close')}>
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className={styles.viewport} />
    </Toast.Provider>
  );
}
