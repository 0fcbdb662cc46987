import { describe, expect, it } from 'vitest';
import { strongestHold } from './lock-rules.ts';

describe('strongestHold', () => {
  it('is null without holds', () => {
    expect(strongestHold([])).toBeNull();
  });

  it('names a lock before a freeze, whatever their levels', () => {
    expect(
      strongestHold([
        { kind: 'frozen', level: 'study' },
        { kind: 'locked', level: 'form' },
      ]),
    ).toEqual({ kind: 'locked', level: 'form' });
  });

  it('names the wider level among holds of one kind', () => {
    expect(
      strongestHold([
        { kind: 'frozen', level: 'form' },
        { kind: 'frozen', level: 'site' },
        { kind: 'frozen', level: 'subject' },
      ]),
    ).toEqual({ kind: 'frozen', level: 'site' });
  });
});
