import { expect, it } from 'vitest';
import type { QueryRow } from '../db/schema.ts';
import type { ExportSubject } from './load-export-batch.ts';
import { type MoveValue, subjectAsOfCurrent } from './subject-as-of-current.ts';

// An amendment as the mover sees it: vitalSigns.opinion renamed remark, measurementDate retired, the
// result re-coded, medicalHistory's rows' endDate renamed stopDate.
const move: MoveValue = (_visitKey, formKey, itemKey, value) => {
  if (formKey === 'vitalSigns') {
    if (itemKey === 'measurementDate') return null;
    if (itemKey === 'opinion') return { formKey, itemKey: 'remark', value };
    if (itemKey === 'result') return { formKey, itemKey, value: value === 'abnormalNcs' ? 'ncs' : value };
  }
  if (formKey === 'medicalHistory' && itemKey === 'history' && Array.isArray(value))
    return {
      formKey,
      itemKey,
      value: value.map((row) =>
        Object.fromEntries(
          Object.entries(row as object).map(([key, cell]) => [key === 'endDate' ? 'stopDate' : key, cell]),
        ),
      ),
    };
  return { formKey, itemKey, value };
};

const query = (item_path: string, form_key = 'vitalSigns') =>
  ({
    query: { visit_key: 'v1', form_key, item_path } as QueryRow,
    messages: [],
  }) as ExportSubject['queries'][number];

it('moves values, change records and queries to their current places, the retired value left out', () => {
  const at = new Date('2026-12-01T00:00:00Z');
  const subject: ExportSubject = {
    id: 1,
    screeningNumber: 'S02-001',
    siteId: 2,
    definitionVersion: '1.0.0',
    values: [
      { visitKey: 'v1', formKey: 'vitalSigns', itemKey: 'opinion', value: 'Seated', derived: false },
      { visitKey: 'v1', formKey: 'vitalSigns', itemKey: 'result', value: 'abnormalNcs', derived: false },
      {
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKey: 'measurementDate',
        value: '2025-03-05',
        derived: false,
      },
    ],
    audit: [
      { path: 'v1.vitalSigns.opinion', userId: 7, at, reason: null, before: null, after: 'Seated' },
      {
        path: 'v1.vitalSigns.measurementDate',
        userId: 7,
        at,
        reason: null,
        before: null,
        after: '2025-03-05',
      },
    ],
    signature: undefined,
    queries: [
      query('v1.vitalSigns.opinion'),
      query('v1.medicalHistory.history[1].endDate', 'medicalHistory'),
      query('', 'vitalSigns'),
      query('v1.vitalSigns.measurementDate'),
    ],
  };
  const moved = subjectAsOfCurrent(subject, move);
  expect(moved.values.map((row) => [row.itemKey, row.value])).toEqual([
    ['remark', 'Seated'],
    ['result', 'ncs'],
  ]);
  // The history keeps what was entered; a record of a retired value stays where it was (no ItemData takes it).
  expect(moved.audit.map((row) => [row.path, row.after])).toEqual([
    ['v1.vitalSigns.remark', 'Seated'],
    ['v1.vitalSigns.measurementDate', '2025-03-05'],
  ]);
  expect(moved.queries.map((thread) => thread.query.item_path)).toEqual([
    'v1.vitalSigns.remark',
    'v1.medicalHistory.history[1].stopDate',
    '',
    'v1.vitalSigns.measurementDate',
  ]);
  // The subject read is not changed in place.
  expect(subject.values).toHaveLength(3);
});
