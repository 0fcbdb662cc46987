import type { Listener } from './subject-store.ts';

// What an input holds that it could not turn into a value: a date after its maximum, an unfinished
// date or time, a number sign without digits. The control keeps the text on screen with its message
// and reports it here, by item path; the page that saves reads the list and refuses to save while it
// is not empty, so nothing typed is dropped silently.

export interface InputRefusal {
  /** The renderer's item path (`imagingDate`, `events[0].startDate`). */
  path: string;
  message: string;
}

export interface InputRefusals {
  /** A control's current refusal (`null`: its text is a value again, or it is gone). */
  report: (path: string, message: string | null) => void;
  /** Every refusal in the order they were reported. */
  list: () => readonly InputRefusal[];
  subscribe: (listener: Listener) => () => void;
}

const NONE: readonly InputRefusal[] = [];

export function createInputRefusals(): InputRefusals {
  let refusals: readonly InputRefusal[] = NONE;
  const listeners = new Set<Listener>();
  return {
    report: (path, message) => {
      const current = refusals.find((refusal) => refusal.path === path);
      if (current?.message === (message ?? undefined)) return;
      const others = refusals.filter((refusal) => refusal.path !== path);
      refusals = message === null ? (others.length === 0 ? NONE : others) : [...others, { path, message }];
      for (const listener of listeners) listener();
    },
    list: () => refusals,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
