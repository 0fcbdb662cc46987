import { describe, expect, it, vi } from 'vitest';
import { createModalStackStore } from './modal-stack.ts';

function setup() {
  const warn = vi.fn();
  const store = createModalStackStore(warn);
  return { store, warn };
}

describe('modal stack', () => {
  it('opens modals on top of each other', () => {
    const { store } = setup();
    expect(store.open('login')).toBe(true);
    expect(store.open('alert')).toBe(true);
    expect(store.getSnapshot()).toEqual(['login', 'alert']);
    expect(store.isOpen('login')).toBe(true);
  });

  it('refuses to open a modal that is already open, and only logs it', () => {
    const { store, warn } = setup();
    store.open('login');
    store.open('alert');
    expect(store.open('login')).toBe(false);
    expect(store.getSnapshot()).toEqual(['login', 'alert']);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('closes the top modal when no name is given', () => {
    const { store } = setup();
    store.open('a');
    store.open('b');
    expect(store.close()).toBe(true);
    expect(store.getSnapshot()).toEqual(['a']);
    expect(store.close()).toBe(true);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('closes by name only when that modal is the top one', () => {
    const { store, warn } = setup();
    store.open('a');
    store.open('b');
    expect(store.close('a')).toBe(false);
    expect(store.getSnapshot()).toEqual(['a', 'b']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not the top'));
    expect(store.close('b')).toBe(true);
    expect(store.close('a')).toBe(true);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('logs closing when nothing (or not that modal) is open', () => {
    const { store, warn } = setup();
    expect(store.close()).toBe(false);
    store.open('a');
    expect(store.close('zzz')).toBe(false);
    expect(store.getSnapshot()).toEqual(['a']);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('can be opened again after it closed', () => {
    const { store } = setup();
    store.open('a');
    store.close('a');
    expect(store.open('a')).toBe(true);
  });

  it('notifies subscribers on changes only, with a new snapshot each time', () => {
    const { store } = setup();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const before = store.getSnapshot();
    store.open('a');
    expect(store.getSnapshot()).not.toBe(before);
    store.open('a'); // refused: no notification
    store.close('b'); // refused
    expect(listener).toHaveBeenCalledTimes(1);
    store.closeAll();
    expect(listener).toHaveBeenCalledTimes(2);
    store.closeAll(); // already empty
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.open('x');
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
