import type { ReviewRow } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { bulkTargets, cellId, rowId } from './bulk-targets.ts';

const row = (formInstanceId: number, groupRow: number | null): ReviewRow => ({
  formInstanceId,
  subjectPk: formInstanceId * 10,
  screeningNumber: `S-${formInstanceId}`,
  siteId: 1,
  siteCode: '01',
  visitKey: 'v1',
  visitLabel: { ko: 'V1', en: 'V1' },
  row: groupRow,
  formStatus: 'check',
  version: 1,
  savedAt: '2026-12-01T00:00:00.000Z',
  review: 'not_reviewed',
  reviewedAt: null,
  reviewedBy: null,
  cells: {},
});

describe('bulk query targets', () => {
  it('takes picked cells, and the shown items of picked rows, each once', () => {
    const rows = [row(1, null), row(2, null)];
    const targets = bulkTargets(
      { groupKey: null, formKey: 'f' },
      rows,
      ['a', 'b'],
      new Set([cellId(rows[0] as ReviewRow, 'b'), cellId(rows[1] as ReviewRow, 'a')]),
      new Set([rowId(rows[1] as ReviewRow)]),
    );
    expect(targets.map((target) => [target.subjectPk, target.itemPath])).toEqual([
      [10, 'b'],
      [20, 'a'],
      [20, 'b'],
    ]);
  });

  it("names a repeating group's cell by its row", () => {
    const rows = [row(3, 2)];
    const targets = bulkTargets(
      { groupKey: 'g', formKey: 'f' },
      rows,
      ['x'],
      new Set([cellId(rows[0] as ReviewRow, 'x')]),
      new Set(),
    );
    expect(targets[0]).toMatchObject({ formKey: 'f', itemPath: 'g[2].x', row: 2 });
  });
});
