import { describe, expect, it } from 'vitest';
import { clampPage, pageCount, pageWindow } from './pagination.ts';

describe('pagination', () => {
  it('counts pages, with one page for an empty list', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(100, 20)).toBe(5);
  });

  it('reads the page parameter as an integer between 1 and the last page', () => {
    expect(clampPage(null, 5)).toBe(1);
    expect(clampPage('3', 5)).toBe(3);
    expect(clampPage('9', 5)).toBe(5);
    expect(clampPage('0', 5)).toBe(1);
    expect(clampPage('-2', 5)).toBe(1);
    expect(clampPage('2.5', 5)).toBe(1);
    expect(clampPage('abc', 5)).toBe(1);
  });

  it('centres five page buttons on the current page and shifts the window at the ends', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 1)).toEqual([1]);
  });
});
