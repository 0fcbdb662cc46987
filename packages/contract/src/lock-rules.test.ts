import { describe, expect, it } from 'vitest';
import {
  type GuardedWrite,
  guardedWrites,
  type Hold,
  holdAllows,
  holdCovers,
  lockLevels,
  refuseUnderHolds,
} from './lock-rules.ts';

const dataWrites: GuardedWrite[] = [
  'subject.create',
  'form.save',
  'form.reset',
  'form.comment',
  'subject.randomize',
  'subject.delete',
];
const allowedWhileFrozen: GuardedWrite[] = [
  'casebook.sign',
  'query.open',
  'query.answer',
  'query.manage',
  'sdv.mark',
];

describe('lock rules', () => {
  it('names every guarded write once, as data writes or work a freeze allows', () => {
    expect([...dataWrites, ...allowedWhileFrozen].sort()).toEqual([...guardedWrites].sort());
  });

  it('lets everything through without a hold', () => {
    for (const write of guardedWrites) expect(refuseUnderHolds(write, [])).toBeNull();
  });

  it('refuses data changes under a freeze at every level, and lets queries, SDV and signing go on', () => {
    for (const level of lockLevels) {
      const holds: Hold[] = [{ kind: 'frozen', level }];
      for (const write of dataWrites)
        expect(refuseUnderHolds(write, holds), `${write} frozen at ${level}`).toEqual({
          status: 423,
          code: 'frozen',
          level,
        });
      for (const write of allowedWhileFrozen)
        expect(refuseUnderHolds(write, holds), `${write} frozen at ${level}`).toBeNull();
    }
  });

  it('refuses every write under a lock at every level', () => {
    for (const level of lockLevels)
      for (const write of guardedWrites) {
        expect(holdAllows({ kind: 'locked', level }, write)).toBe(false);
        expect(refuseUnderHolds(write, [{ kind: 'locked', level }])).toEqual({
          status: 423,
          code: 'locked',
          level,
        });
      }
  });

  it('names a lock before a freeze, and a wider level before a narrower one', () => {
    expect(
      refuseUnderHolds('form.save', [
        { kind: 'frozen', level: 'study' },
        { kind: 'locked', level: 'form' },
      ]),
    ).toEqual({ status: 423, code: 'locked', level: 'form' });
    expect(
      refuseUnderHolds('form.save', [
        { kind: 'frozen', level: 'form' },
        { kind: 'frozen', level: 'site' },
        { kind: 'frozen', level: 'subject' },
      ]),
    ).toEqual({ status: 423, code: 'frozen', level: 'site' });
    // A freeze that allows the write does not hide a lock that refuses it.
    expect(
      refuseUnderHolds('sdv.mark', [
        { kind: 'frozen', level: 'study' },
        { kind: 'locked', level: 'subject' },
      ]),
    ).toEqual({ status: 423, code: 'locked', level: 'subject' });
  });
});

describe('holdCovers', () => {
  const subjectForm = { siteId: 1, subjectId: 10, visitKey: 'v1', formKey: 'vitals' };
  it('covers what lies below a hold and nothing above or beside it', () => {
    expect(holdCovers({ level: 'study' }, { siteId: 2 })).toBe(true);
    expect(holdCovers({ level: 'site', siteId: 1 }, subjectForm)).toBe(true);
    expect(holdCovers({ level: 'site', siteId: 2 }, subjectForm)).toBe(false);
    expect(holdCovers({ level: 'subject', subjectId: 10 }, subjectForm)).toBe(true);
    expect(holdCovers({ level: 'subject', subjectId: 11 }, subjectForm)).toBe(false);
    // A subject's hold does not hold its site; a form's does not hold its subject.
    expect(holdCovers({ level: 'subject', subjectId: 10 }, { siteId: 1 })).toBe(false);
    const formHold = { level: 'form' as const, subjectId: 10, visitKey: 'v1', formKey: 'vitals' };
    expect(holdCovers(formHold, subjectForm)).toBe(true);
    expect(holdCovers(formHold, { siteId: 1, subjectId: 10 })).toBe(false);
    expect(holdCovers(formHold, { ...subjectForm, formKey: 'demographics' })).toBe(false);
  });
});
