import { createContext, lazy, type ReactNode, Suspense, use, useCallback, useState } from 'react';

/** prototype-spec §9: toasts close by themselves after 3000 ms, can be closed, sit bottom centre. */
export const TOAST_DURATION_MS = 3000;

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastEntry {
  id: number;
  message: ReactNode;
  tone: ToastTone;
}

type ShowToast = (message: ReactNode, tone?: ToastTone) => void;

const ToastContext = createContext<ShowToast | null>(null);

// The toasts themselves (Radix Toast) load with the first one shown: a page that never shows a
// toast, like a visitor's landing page, does not pay for them.
const ToastList = lazy(async () => ({ default: (await import('./toast-list.tsx')).ToastList }));

let nextToastId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<readonly ToastEntry[]>([]);
  // Once shown, the list stays mounted: Radix keeps its live region between toasts.
  const [used, setUsed] = useState(false);

  const show = useCallback<ShowToast>((message, tone = 'info') => {
    const id = nextToastId++;
    setUsed(true);
    setToasts((current) => [...current, { id, message, tone }]);
  }, []);

  const remove = useCallback(
    (id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)),
    [],
  );

  return (
    <ToastContext value={show}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <ToastList toasts={toasts} onRemove={remove} />
        </Suspense>
      ) : null}
    </ToastContext>
  );
}

export function useToast(): ShowToast {
  const show = use(ToastContext);
  if (!show) throw new Error('useToast() needs a <ToastProvider> above it.');
  return show;
}
