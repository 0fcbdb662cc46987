import { describe, expect, it } from 'vitest';
import { holdChangeToOffer } from './holds-api.ts';

describe('holdChangeToOffer', () => {
  it('offers to place a hold where none holds the target', () => {
    expect(holdChangeToOffer([], 'form', 'frozen')).toBe('place');
  });

  it('offers to lift the hold of that kind placed at the level itself', () => {
    expect(holdChangeToOffer([{ kind: 'frozen', level: 'form' }], 'form', 'frozen')).toBe('lift');
  });

  it('offers nothing where a wider hold of that kind, or any lock, already holds the target', () => {
    expect(holdChangeToOffer([{ kind: 'frozen', level: 'site' }], 'subject', 'frozen')).toBeNull();
    expect(holdChangeToOffer([{ kind: 'locked', level: 'study' }], 'form', 'frozen')).toBeNull();
    expect(holdChangeToOffer([{ kind: 'frozen', level: 'study' }], 'form', 'locked')).toBe('place');
  });
});
