import { describe, expect, it } from 'vitest';
import { parseViewMode, withViewMode } from './view-mode.ts';

describe('view mode', () => {
  it('defaults to cards for a missing or unknown value', () => {
    expect(parseViewMode(null)).toBe('card');
    expect(parseViewMode('grid')).toBe('card');
    expect(parseViewMode('list')).toBe('list');
  });

  it('keeps the other parameters and leaves the default out of the URL', () => {
    const params = new URLSearchParams('search=ear');
    expect(withViewMode(params, 'list').toString()).toBe('search=ear&view=list');
    expect(withViewMode(new URLSearchParams('view=list&search=ear'), 'card').toString()).toBe('search=ear');
  });
});
