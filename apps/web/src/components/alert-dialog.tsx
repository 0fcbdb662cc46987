import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { modalZIndex, useModalStack } from './modal-stack-provider.tsx';

export interface AlertOptions {
  /**
   * The dialog's name in the modal stack. Asking for a dialog whose name is already open does not
   * open a second one: the caller gets the answer of the one on screen.
   */
  name?: string;
  title?: ReactNode;
  message: ReactNode;
  confirmLabel?: ReactNode;
}

export interface ConfirmOptions extends AlertOptions {
  cancelLabel?: ReactNode;
}

export interface PendingDialog {
  name: string;
  kind: 'alert' | 'confirm';
  options: ConfirmOptions;
  promise: Promise<boolean>;
  resolve: (confirmed: boolean) => void;
}

interface AlertApi {
  /** An information dialog with one button; resolves when it is dismissed. */
  alert: (options: AlertOptions) => Promise<void>;
  /** A question with confirm and cancel; resolves true on confirm, false on cancel or Escape. */
  confirm: (options: ConfirmOptions) => Promise<boolean>;
}

const AlertContext = createContext<AlertApi | null>(null);

// The dialog itself (Radix AlertDialog) loads with the first one asked for: a page that never asks,
// like a visitor's landing page, does not pay for it.
const AlertDialogView = lazy(async () => ({
  default: (await import('./alert-dialog-view.tsx')).AlertDialogView,
}));

/**
 * Alert and confirm dialogs instead of window.alert/confirm: styled, translated, stacked with the
 * other modals (prototype-spec §4) and focus-trapped by Radix AlertDialog.
 */
export function AlertDialogProvider({ children }: { children: ReactNode }) {
  const modals = useModalStack();
  const [pending, setPending] = useState<readonly PendingDialog[]>([]);
  const pendingRef = useRef<readonly PendingDialog[]>([]);
  const sequence = useRef(0);

  const update = useCallback((next: readonly PendingDialog[]) => {
    pendingRef.current = next;
    setPending(next);
  }, []);

  const { open: openModal, close: closeModal, isOpen: isModalOpen } = modals;
  const show = useCallback(
    (kind: PendingDialog['kind'], options: ConfirmOptions): Promise<boolean> => {
      sequence.current += 1;
      const name = options.name ?? `alert-${sequence.current}`;
      const existing = pendingRef.current.find((dialog) => dialog.name === name);
      if (existing) {
        if (isModalOpen(name)) return existing.promise;
        // Closed a moment ago by someone else and not yet cleaned up: settle it, open a new one.
        update(pendingRef.current.filter((dialog) => dialog !== existing));
        existing.resolve(false);
      }
      if (!openModal(name)) return Promise.resolve(false); // another kind of modal holds the name
      let resolve: (confirmed: boolean) => void = () => {};
      const promise = new Promise<boolean>((settle) => {
        resolve = settle;
      });
      update([...pendingRef.current, { name, kind, options, promise, resolve }]);
      return promise;
    },
    [openModal, isModalOpen, update],
  );

  const settle = useCallback(
    (dialog: PendingDialog, confirmed: boolean) => {
      if (!pendingRef.current.includes(dialog)) return;
      update(pendingRef.current.filter((entry) => entry !== dialog));
      closeModal(dialog.name);
      dialog.resolve(confirmed);
    },
    [closeModal, update],
  );

  // Dialogs removed from the stack by someone else (closeAll at the end of a session) count as
  // cancelled, so whoever awaits them is not left waiting forever. The stack this render saw may be
  // older than the store: a child's effect may have opened a dialog in this very commit (a page that
  // asks for a login as it first appears), so a dialog is gone only if it is not open now either.
  useEffect(() => {
    const gone = pendingRef.current.filter(
      (dialog) => !modals.stack.includes(dialog.name) && !isModalOpen(dialog.name),
    );
    if (gone.length === 0) return;
    update(pendingRef.current.filter((dialog) => !gone.includes(dialog)));
    for (const dialog of gone) dialog.resolve(false);
  }, [modals.stack, isModalOpen, update]);

  const api = useMemo<AlertApi>(
    () => ({
      alert: async (options) => {
        await show('alert', options);
      },
      confirm: (options) => show('confirm', options),
    }),
    [show],
  );

  return (
    <AlertContext value={api}>
      {children}
      {pending.length > 0 ? (
        <Suspense fallback={null}>
          {pending.map((dialog) => (
            <AlertDialogView
              key={dialog.name}
              dialog={dialog}
              zIndex={modalZIndex(modals.stack.indexOf(dialog.name))}
              onSettle={settle}
            />
          ))}
        </Suspense>
      ) : null}
    </AlertContext>
  );
}

export function useAlert(): AlertApi {
  const api = use(AlertContext);
  if (!api) throw new Error('useAlert() needs an <AlertDialogProvider> above it.');
  return api;
}
