import { describe, expect, it } from 'vitest';
import { refusedSubjects } from './hold-dialog.tsx';

describe('the subjects a refused bulk change names', () => {
  const selected = [
    { subjectPk: 4, subjectId: 'S01-004' },
    { subjectPk: 9, subjectId: 'S02-001' },
  ];

  it('names them by screening number, and by id when not on the page', () => {
    expect(refusedSubjects({ subjectPks: [9, 12] }, selected)).toEqual(['S02-001', '#12']);
  });

  it('names nothing when the details do not list subjects', () => {
    expect(refusedSubjects(undefined, selected)).toEqual([]);
    expect(refusedSubjects({ kind: 'frozen', level: 'site' }, selected)).toEqual([]);
    expect(refusedSubjects({ subjectPks: 'all' }, selected)).toEqual([]);
  });
});
