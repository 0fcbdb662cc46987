import { createContext, type ReactNode, use, useMemo, useState, useSyncExternalStore } from 'react';
import { createModalStackStore, type ModalStackStore } from './modal-stack.ts';

const ModalStackContext = createContext<ModalStackStore | null>(null);

/** Holds the app's one modal stack; every `Modal` and alert dialog opens and closes through it. */
export function ModalStackProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createModalStackStore());
  return <ModalStackContext value={store}>{children}</ModalStackContext>;
}

function useModalStackStore(): ModalStackStore {
  const store = use(ModalStackContext);
  if (!store) throw new Error('useModalStack() needs a <ModalStackProvider> above it.');
  return store;
}

export interface ModalStackApi {
  /** Names of the open modals, bottom first, as of this render. */
  stack: readonly string[];
  open: (name: string) => boolean;
  close: (name?: string) => boolean;
  closeAll: () => void;
  isOpen: (name: string) => boolean;
}

export function useModalStack(): ModalStackApi {
  const store = useModalStackStore();
  const stack = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(
    () => ({
      stack,
      open: store.open,
      close: store.close,
      closeAll: store.closeAll,
      // The store's own functions: stable, and `isOpen` answers for now, not for the last render.
      isOpen: store.isOpen,
    }),
    [store, stack],
  );
}

/** Layering of stacked modals: each one above the one it was opened over. */
export function modalZIndex(stackIndex: number): number {
  return 1000 + Math.max(0, stackIndex) * 10;
}
