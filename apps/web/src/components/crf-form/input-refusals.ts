import type { Listener } from './subject-store.ts';

// What an input holds that it could not turn into a value: a date after its maximum, an unfinished
// date or time, a number sign without digits. The control keeps the text on screen with its message
// and reports it here, by item path; the page that saves reads the list and refuses to save while it
// is not empty, so nothing typed is dropped silently.

/**
 * Why an input refused its text: a key of the renderer's strings (`crf` namespace) with its values,
 * translated where it is shown (so it follows the form's language).
 */
export interface Refusal {
  key: string;
  values?: Record<string, string>;
}

export interface InputRefusal {
  /** The renderer's item path (`imagingDate`, `events[0].startDate`). */
  path: string;
  refusal: Refusal;
}

function sameRefusal(a: Refusal | undefined, b: Refusal | null): boolean {
  if (!a || !b) return (a ?? null) === b;
  return a.key === b.key && JSON.stringify(a.values ?? {}) === JSON.stringify(b.values ?? {});
}

export interface InputRefusals {
  /** A control's current refusal (`null`: its text is a value again, or it is gone). */
  report: (path: string, refusal: Refusal | null) => void;
  /** Every refusal in the order they were reported. */
  list: () => readonly InputRefusal[];
  subscribe: (listener: Listener) => () => void;
}

const NONE: readonly InputRefusal[] = [];

export function createInputRefusals(): InputRefusals {
  let refusals: readonly InputRefusal[] = NONE;
  const listeners = new Set<Listener>();
  return {
    report: (path, refusal) => {
      if (sameRefusal(refusals.find((entry) => entry.path === path)?.refusal, refusal)) return;
      const others = refusals.filter((entry) => entry.path !== path);
      refusals = refusal === null ? (others.length === 0 ? NONE : others) : [...others, { path, refusal }];
      for (const listener of listeners) listener();
    },
    list: () => refusals,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
