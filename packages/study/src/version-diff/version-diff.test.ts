import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StudyDefinition, studyDefinitionSchema } from '../model/study-definition.ts';
import { movedKeys, sameValue } from './compare-values.ts';
import { describeDiff, formatValue } from './describe-diff.ts';
import { type DefinitionDiff, diffDefinitions } from './diff-definitions.ts';
import { groupDiffLines } from './group-diff-lines.ts';

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

  describe('HEAR with hand-made edits', () => {
    const after = structuredClone(hear);
    after.version = '1.1.0';
    const minimumAge = after.parameters?.minimumAge;
    if (!minimumAge || !after.roles?.demographics || !after.unscheduledVisit) throw new Error('hear');
    minimumAge.value = 20;
    after.roles.demographics.femaleCode = 'W';
    after.unscheduledVisit.forms = ['visitInfo', 'audiometry', 'qualityOfLife'];
    // A visit added at the end, before the "all" page.
    after.visits.splice(after.visits.length - 1, 0, {
      key: 'month24',
      label: { ko: '24개월', en: 'Month 24' },
      group: 'follow_up',
      window: { anchorVisit: 'baseline', offsetDays: 730, minusDays: 30, plusDays: 30 },
      forms: ['visitInfo', 'audiometry'],
    });
    // Two sections swapped, two codes swapped, a check removed.
    const audiometry = after.forms.find((form) => form.key === 'audiometry');
    const ear = after.codeLists.find((list) => list.key === 'ear');
    if (!audiometry?.checks || !ear) throw new Error('hear');
    const [test, air, bone, averages] = audiometry.sections;
    if (!test || !air || !bone || !averages) throw new Error('sections');
    audiometry.sections = [test, bone, air, averages];
    ear.codes.reverse();
    audiometry.checks = audiometry.checks.filter((check) => check.id !== 'audiometry.testedEarNotOperated');

    const diff = diffDefinitions(hear, after);

    it('opens study fields (parameters, roles) down to the field that changed', () => {
      expect(diff.study).toEqual([
        { field: 'version', before: '1.0.0', after: '1.1.0' },
        { field: 'parameters.minimumAge.value', before: 19, after: 20 },
        { field: 'roles.demographics.femaleCode', before: 'F', after: 'W' },
      ]);
      expect(diff.unscheduledVisit).toEqual([
        {
          field: 'forms',
          before: ['visitInfo', 'audiometry'],
          after: ['visitInfo', 'audiometry', 'qualityOfLife'],
        },
      ]);
    });

    it('tells a reordering from an edit: one section moved, no item moved, one code moved', () => {
      expect(diff.visits.added.map((visit) => visit.key)).toEqual(['month24']);
      expect(diff.visits.changed).toEqual([]);
      const [form] = diff.forms.changed;
      expect(form?.layout.sections.changed.map((change) => [change.key, change.moved])).toEqual([
        ['air', { from: 2, to: 3 }],
      ]);
      expect(form?.layout.items.changed).toEqual([]);
      expect(form?.checks.removed.map((check) => check.id)).toEqual(['audiometry.testedEarNotOperated']);
      expect(diff.codeLists.changed[0]?.codes.changed.map((change) => [change.key, change.moved])).toEqual([
        ['R', { from: 1, to: 2 }],
      ]);
      expect(diff.summary.codeLists).toEqual({ added: 0, removed: 0, changed: 1, moved: 0 });
      expect(diff.summary.checks).toEqual({ added: 0, removed: 1, changed: 0, moved: 0 });
    });

    it('describes them', () => {
      expect(describeDiff(diff, 'en').map((line) => line.text)).toEqual([
        'Study: version 1.0.0 → 1.1.0',
        'Study: parameters › minimumAge › value 19 → 20',
        'Study: roles › demographics › femaleCode F → W',
        'Visit Month 24: added',
        'Unscheduled visit: forms visitInfo, audiometry → visitInfo, audiometry, qualityOfLife',
        'Code list ear › code R (Right): order 1 → 2',
        'Form Pure-tone audiometry › section Air conduction: order 2 → 3',
        'Form Pure-tone audiometry › check audiometry.testedEarNotOperated: removed',
      ]);
      expect(describeDiff(diff, 'ko').map((line) => line.text)).toEqual([
        '시험: 버전 1.0.0 → 1.1.0',
        '시험: 매개변수 › minimumAge › 값 19 → 20',
        '시험: 역할 › demographics › femaleCode F → W',
        '방문 24개월: 추가됨',
        '비정기 방문: 양식 visitInfo, audiometry → visitInfo, audiometry, qualityOfLife',
        '코드 목록 ear › 코드 R (오른쪽): 순서 1 → 2',
        '양식 순음 청력 검사 › 섹션 기도 역치: 순서 2 → 3',
        '양식 순음 청력 검사 › 검사 audiometry.testedEarNotOperated: 삭제됨',
      ]);
    });
  });

  it('reads variants, booleans and fields the model does not name yet', () => {
    const after = structuredClone(tmp);
    const visitDay = after.forms.find((form) => form.key === 'visitDay');
    const queryRadio = visitDay?.variants?.[1]?.sections[0]?.items.find((item) => item.key === 'queryRadio');
    const visitDate = visitDay?.sections[0]?.items.find((item) => item.key === 'visitDate');
    if (!queryRadio || !visitDate) throw new Error('visitDay');
    queryRadio.required = true;
    // A field a later model might add: it shows up without a change to the diff.
    Object.assign(visitDate, { placeholder: { ko: '연-월-일', en: 'YYYY-MM-DD' } });
    const diff = diffDefinitions(tmp, after);
    expect(describeDiff(diff, 'en').map((line) => [line.path, line.text])).toEqual([
      [
        'forms/visitDay/items/visitDate/placeholder',
        'Form Visit day › item Visit date: placeholder — → 연-월-일 / YYYY-MM-DD',
      ],
      [
        'forms/visitDay/variants/v2/items/queryRadio/required',
        'Form Visit day › variant (Visit v2) › item Reason the visit date is earlier than today: required — → yes',
      ],
    ]);
    expect(describeDiff(diff, 'ko').map((line) => line.text)).toEqual([
      '양식 방문일 › 항목 방문일: placeholder — → 연-월-일 / YYYY-MM-DD',
      '양식 방문일 › 변형 (방문 v2) › 항목 방문일이 오늘보다 이전인 사유: 필수 — → 예',
    ]);
    expect(diff.summary.items).toEqual({ added: 0, removed: 0, changed: 2, moved: 0 });
  });

  it('compares two different studies without throwing, in the order of the definition', () => {
    const diff = diffDefinitions(tmp, hear);
    const lines = describeDiff(diff, 'en');
    expect(diff.forms.added.length).toBe(hear.forms.length - diff.forms.changed.length);
    const sections = ['study', 'visits', 'unscheduledVisit', 'codeLists', 'forms'];
    const order = lines.map((line) => sections.indexOf(line.path.split('/')[0] ?? ''));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines[0]?.text).toBe('Study: key tmPerforation → hearFollowUp');
    expect(describeDiff(diff, 'ko').length).toBe(lines.length);
  });

  it('groups the lines by the part of the definition they are about, keeping every line once in order', () => {
    const lines = describeDiff(diffDefinitions(tmp, hear), 'en');
    const groups = groupDiffLines(lines);
    expect(groups.map((entry) => entry.group)).toEqual(
      ['study', 'visits', 'unscheduledVisit', 'codeLists', 'forms'].filter((group) =>
        lines.some((line) => line.path.split('/')[0] === group),
      ),
    );
    expect(groups.flatMap((entry) => entry.lines)).toEqual(lines);
    for (const entry of groups)
      expect(entry.lines.every((line) => line.path.split('/')[0] === entry.group)).toBe(true);
    expect(groupDiffLines([])).toEqual([]);
  });

  it('handles a 3,000-item definition against itself with 100 items changed', () => {
    const big = generatedDefinition(60, 50);
    const after = structuredClone(big);
    let changed = 0;
    for (const form of after.forms)
      for (const section of form.sections)
        for (const item of section.items)
          if (changed < 100 && Number(item.key.slice(4)) % 10 === 0) {
            item.max = 999;
            changed += 1;
          }
    const diff = diffDefinitions(big, after);
    expect(diff.summary.items).toEqual({ added: 0, removed: 0, changed: 100, moved: 0 });
    expect(describeDiff(diff, 'en')).toHaveLength(100);
  });
});

describe('the parts', () => {
  it('moves only what left its order', () => {
    expect([...movedKeys(['a', 'b', 'c'], ['a', 'x', 'b', 'c'])]).toEqual([]);
    expect([...movedKeys(['a', 'b', 'c'], ['a', 'c'])]).toEqual([]);
    expect([...movedKeys(['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c'])]).toEqual(['d']);
    expect([...movedKeys(['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a'])]).toEqual(['a']);
    expect(movedKeys(['a', 'b', 'c', 'd'], ['d', 'c', 'b', 'a']).size).toBe(3);
  });

  it('compares values whatever the order of keys, an undefined field as absent', () => {
    expect(sameValue({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
  });

  it('formats values for a reader', () => {
    expect(formatValue(undefined, 'en')).toBe('—');
    expect(formatValue(true, 'en')).toBe('yes');
    expect(formatValue(false, 'ko')).toBe('아니요');
    expect(formatValue({ ko: '맥박', en: 'Pulse' }, 'en')).toBe('맥박 / Pulse');
    expect(formatValue(['v1', 'v2'], 'en')).toBe('v1, v2');
    expect(formatValue({ op: 'gt', args: [{ ref: 'age' }, 18] }, 'en')).toBe(
      '{"op":"gt","args":[{"ref":"age"},18]}',
    );
    expect(formatValue({ anchorVisit: 'v2', offsetDays: 14, minusDays: 3, plusDays: 3 }, 'en')).toBe(
      'anchor visit v2 · offset days 14 · days before 3 · days after 3',
    );
  });
});

/** A study of `forms` forms of `itemsPerForm` integer items each, five sections a form, every visit offering all. */
function generatedDefinition(forms: number, itemsPerForm: number): StudyDefinition {
  const formKeys = Array.from({ length: forms }, (_, index) => `form${index}`);
  return {
    key: 'big',
    version: '1.0.0',
    label: { ko: '큰 시험', en: 'Big study' },
    codeLists: [],
    visits: [{ key: 'v1', label: { ko: '방문 1', en: 'Visit 1' }, group: 'baseline', forms: formKeys }],
    forms: formKeys.map((key) => ({
      key,
      label: { ko: `양식 ${key}`, en: `Form ${key}` },
      sections: Array.from({ length: 5 }, (_, section) => ({
        key: `section${section}`,
        label: { ko: `섹션 ${section}`, en: `Section ${section}` },
        items: Array.from({ length: itemsPerForm / 5 }, (_, index) => ({
          key: `item${section * (itemsPerForm / 5) + index}`,
          type: 'integer' as const,
          label: { ko: `항목 ${index}`, en: `Item ${index}` },
          min: 0,
          max: 100,
        })),
      })),
    })),
  };
}
