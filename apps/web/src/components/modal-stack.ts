/**
 * The open modals, bottom to top, under their names (prototype-spec §4):
 * - a modal that is already open cannot be opened again;
 * - closing without a name closes the top one;
 * - closing by name works only when that modal is the top one (nothing under another modal closes).
 * Misuse changes nothing and is only logged (spec §8). Framework-free so the rules are unit-tested
 * apart from React; `ModalStackProvider` subscribes React to it.
 */
export interface ModalStackStore {
  /** The names of the open modals, bottom first. A new array after every change. */
  getSnapshot(): readonly string[];
  subscribe(listener: () => void): () => void;
  /** Opens `name` on top. False (and nothing changes) if it is open already. */
  open(name: string): boolean;
  /** Closes the top modal, or `name` if it is the top one. False when nothing closed. */
  close(name?: string): boolean;
  /** Closes every modal (the session ended: nothing of the old session may stay on screen). */
  closeAll(): void;
  isOpen(name: string): boolean;
}

export function createModalStackStore(warn: (message: string) => void = console.warn): ModalStackStore {
  let stack: readonly string[] = [];
  const listeners = new Set<() => void>();

  function set(next: readonly string[]): void {
    stack = next;
    for (const listener of listeners) listener();
  }

  return {
    getSnapshot: () => stack,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    open(name) {
      if (stack.includes(name)) {
        warn(`Modal "${name}" is already open.`);
        return false;
      }
      set([...stack, name]);
      return true;
    },
    close(name) {
      const top = stack.at(-1);
      if (top === undefined) {
        warn(name ? `Modal "${name}" is not open.` : 'No modal is open.');
        return false;
      }
      if (name !== undefined && name !== top) {
        warn(
          stack.includes(name)
            ? `Modal "${name}" is not the top modal ("${top}" is); it stays open.`
            : `Modal "${name}" is not open.`,
        );
        return false;
      }
      set(stack.slice(0, -1));
      return true;
    },
    closeAll() {
      if (stack.length > 0) set([]);
    },
    isOpen: (name) => stack.includes(name),
  };
}
