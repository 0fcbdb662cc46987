import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StudyDefinition, studyDefinitionSchema } from '../model/study-definition.ts';
import { describeDiff } from './describe-diff.ts';
import { type DefinitionDiff, diffDefinitions } from './diff-definitions.ts';

function loadDefinition(file: string): StudyDefinition {
  const url = new URL(`../../definitions/${file}`, import.meta.url);
  return studyDefinitionSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
}

const tmp = loadDefinition('tm-perforation.json');
const hear = loadDefinition('hear-followup.json');

/** The same value with every object's keys in reverse order, as jsonb might hand it back. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, entry]) => [key, reverseKeys(entry)]),
  );
}

function isEmpty(diff: DefinitionDiff): boolean {
  const collections = [diff.visits, diff.codeLists, diff.forms];
  return (
    diff.study.length === 0 &&
    diff.unscheduledVisit.length === 0 &&
    collections.every((c) => c.added.length + c.removed.length + c.changed.length === 0)
  );
}

const noChange = { added: 0, removed: 0, changed: 0, moved: 0 };

describe('diffDefinitions', () => {
  it('finds nothing between a definition and itself, or a copy with its keys reordered', () => {
    for (const definition of [tmp, hear]) {
      expect(isEmpty(diffDefinitions(definition, definition))).toBe(true);
      const reordered = reverseKeys(definition) as StudyDefinition;
      const diff = diffDefinitions(definition, reordered);
      expect(isEmpty(diff)).toBe(true);
      expect(describeDiff(diff, 'en')).toEqual([]);
      expect(
        Object.values(diff.summary).every((count) => JSON.stringify(count) === JSON.stringify(noChange)),
      );
    }
  });

  describe('TMP-2026 with hand-made edits', () => {
    const after = structuredClone(tmp);
    const form = (key: string) => {
      const found = after.forms.find((entry) => entry.key === key);
      if (!found) throw new Error(key);
      return found;
    };
    const vitals = form('vitalSigns').sections[0];
    if (!vitals) throw new Error('vitals');
    const item = (key: string) => {
      const found = vitals.items.find((entry) => entry.key === key);
      if (!found) throw new Error(key);
      return found;
    };
    // An item added after the pulse, one removed.
    vitals.items.splice(vitals.items.indexOf(item('heartRate')) + 1, 0, {
      key: 'respiratoryRate',
      type: 'integer',
      label: { ko: '호흡수', en: 'Respiratory rate' },
      unit: '/min',
    });
    vitals.items.splice(vitals.items.indexOf(item('opinion')), 1);
    // A range widened, a label changed in English only.
    item('heartRate').max = 120;
    item('bodyTemperature').label = { ko: '체온', en: 'Temperature' };
    // A code relabelled.
    const moderate = after.codeLists.find((list) => list.key === 'aeSeverity')?.codes[1];
    if (!moderate) throw new Error('moderate');
    moderate.label = { ko: '중등증', en: 'Medium' };
    // A check's severity.
    const check = form('vitalSigns').checks?.[0];
    if (!check) throw new Error('check');
    check.severity = 'warning';
    // A visit window, a form no longer offered at a visit.
    const v3 = after.visits.find((visit) => visit.key === 'v3');
    const v6 = after.visits.find((visit) => visit.key === 'v6');
    if (!v3?.window || !v6) throw new Error('visits');
    v3.window.plusDays = 5;
    v6.forms = v6.forms.filter((key) => key !== 'pregnancyTest');
    // An item moved to another section.
    const [exam, findings] = form('physicalExam').sections;
    const note = findings?.items.find((entry) => entry.key === 'note');
    if (!exam || !findings || !note) throw new Error('physicalExam');
    findings.items = findings.items.filter((entry) => entry !== note);
    exam.items.push(note);

    const diff = diffDefinitions(tmp, after);

    it('finds exactly those edits', () => {
      expect(diff.study).toEqual([]);
      expect(diff.unscheduledVisit).toEqual([]);
      expect(diff.visits.added).toEqual([]);
      expect(diff.visits.removed).toEqual([]);
      expect(diff.visits.changed.map((change) => [change.key, change.fields, change.forms])).toEqual([
        ['v3', [{ field: 'window.plusDays', before: 3, after: 5 }], { added: [], removed: [], moved: [] }],
        ['v6', [], { added: [], removed: ['pregnancyTest'], moved: [] }],
      ]);
      expect(diff.codeLists.changed.map((change) => [change.key, change.codes.changed])).toEqual([
        [
          'aeSeverity',
          [
            {
              key: 'moderate',
              before: tmp.codeLists.find((list) => list.key === 'aeSeverity')?.codes[1],
              after: moderate,
              fields: [
                {
                  field: 'label',
                  before: { ko: '중등증', en: 'Moderate' },
                  after: { ko: '중등증', en: 'Medium' },
                },
              ],
            },
          ],
        ],
      ]);
      expect(diff.forms.changed.map((change) => change.key)).toEqual(['physicalExam', 'vitalSigns']);
      const [physical, vital] = diff.forms.changed;
      expect(
        physical?.layout.items.changed.map((change) => [change.key, change.moved, change.fields]),
      ).toEqual([['note', { from: 4, to: 3, fromSection: 'examinations', toSection: 'exam' }, []]]);
      expect(vital?.layout.items.added.map((entry) => [entry.section, entry.item.key])).toEqual([
        ['vitals', 'respiratoryRate'],
      ]);
      expect(vital?.layout.items.removed.map((entry) => entry.item.key)).toEqual(['opinion']);
      expect(vital?.layout.items.changed.map((change) => [change.key, change.fields, change.moved])).toEqual([
        ['heartRate', [{ field: 'max', before: 100, after: 120 }], undefined],
        [
          'bodyTemperature',
          [
            {
              field: 'label',
              before: { ko: '체온', en: 'Body temperature' },
              after: { ko: '체온', en: 'Temperature' },
            },
          ],
          undefined,
        ],
      ]);
      expect(vital?.checks.changed.map((change) => [change.key, change.fields])).toEqual([
        ['vitalSigns.systolicNotAboveDiastolic', [{ field: 'severity', before: 'query', after: 'warning' }]],
      ]);
      expect(diff.summary).toEqual({
        visits: { added: 0, removed: 0, changed: 2, moved: 0 },
        forms: { added: 0, removed: 0, changed: 2, moved: 0 },
        items: { added: 1, removed: 1, changed: 2, moved: 1 },
        codeLists: { added: 0, removed: 0, changed: 1, moved: 0 },
        checks: { added: 0, removed: 0, changed: 1, moved: 0 },
      });
    });

    it('describes them in English and Korean', () => {
      expect(describeDiff(diff, 'en')).toEqual([
        {
          path: 'visits/v3/window/plusDays',
          kind: 'changed',
          text: 'Visit Follow-up (V3): window › days after 3 → 5',
        },
        {
          path: 'visits/v6/forms/pregnancyTest',
          kind: 'removed',
          text: 'Visit End of study (V6) › form Pregnancy test: removed from the visit',
        },
        {
          path: 'codeLists/aeSeverity/codes/moderate/label',
          kind: 'changed',
          text: 'Code list aeSeverity › code moderate (Medium): label 중등증 / Moderate → 중등증 / Medium',
        },
        {
          path: 'forms/physicalExam/items/note',
          kind: 'moved',
          text: 'Form Physical examination › item Note: moved from section Abnormal findings to section Physical examination',
        },
        {
          path: 'forms/vitalSigns/items/respiratoryRate',
          kind: 'added',
          text: 'Form Vital signs › item Respiratory rate: added (section Vital signs)',
        },
        {
          path: 'forms/vitalSigns/items/opinion',
          kind: 'removed',
          text: 'Form Vital signs › item Opinion: removed',
        },
        {
          path: 'forms/vitalSigns/items/heartRate/max',
          kind: 'changed',
          text: 'Form Vital signs › item Pulse rate: max 100 → 120',
        },
        {
          path: 'forms/vitalSigns/items/bodyTemperature/label',
          kind: 'changed',
          text: 'Form Vital signs › item Temperature: label 체온 / Body temperature → 체온 / Temperature',
        },
        {
          path: 'forms/vitalSigns/checks/vitalSigns.systolicNotAboveDiastolic/severity',
          kind: 'changed',
          text: 'Form Vital signs › check vitalSigns.systolicNotAboveDiastolic: severity query → warning',
        },
      ]);
      expect(describeDiff(diff, 'ko').map((line) => line.text)).toEqual([
        '방문 추적 관찰 (V3): 방문 허용 기간 › 뒤 허용 일수 3 → 5',
        '방문 종료 방문 (V6) › 양식 임신 검사: 방문에서 빠짐',
        '코드 목록 aeSeverity › 코드 moderate (중등증): 이름 중등증 / Moderate → 중등증 / Medium',
        '양식 신체 검사 › 항목 비고: 섹션 이상 소견 → 섹션 신체 검사 이동',
        '양식 활력 징후 › 항목 호흡수: 추가됨 (섹션 활력 징후)',
        '양식 활력 징후 › 항목 소견: 삭제됨',
        '양식 활력 징후 › 항목 맥박: 최댓값 100 → 120',
        '양식 활력 징후 › 항목 체온: 이름 체온 / Body temperature → 체온 / Temperature',
        '양식 활력 징후 › 검사 vitalSigns.systolicNotAboveDiastolic: 심각도 query → warning',
      ]);
    });
  });
});
