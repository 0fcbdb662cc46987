import { Toast } from 'radix-ui';
import { createContext, type ReactNode, use, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './toast.module.css';

/** prototype-spec §9: toasts close by themselves after 3000 ms, can be closed, sit bottom centre. */
export const TOAST_DURATION_MS = 3000;

type ToastTone = 'info' | 'success' | 'error';

interface ToastEntry {
  id: number;
  message: ReactNode;
  tone: ToastTone;
}

type ShowToast = (message: ReactNode, tone?: ToastTone) => void;

const ToastContext = createContext<ShowToast | null>(null);

let nextToastId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const [toasts, setToasts] = useState<readonly ToastEntry[]>([]);

  const show = useCallback<ShowToast>((message, tone = 'info') => {
    const id = nextToastId++;
    setToasts((current) => [...current, { id, message, tone }]);
  }, []);

  const remove = (id: number) => setToasts((current) => current.filter((toast) => toast.id !== id));

  return (
    <ToastContext value={show}>
      <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="down" label={t('toast.label')}>
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            className={`${styles.toast} ${styles[toast.tone]}`}
            type={toast.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) remove(toast.id);
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
    </ToastContext>
  );
}

export function useToast(): ShowToast {
  const show = use(ToastContext);
  if (!show) throw new Error('useToast() needs a <ToastProvider> above it.');
  return show;
}
