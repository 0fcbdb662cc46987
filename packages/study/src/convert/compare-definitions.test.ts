import { describe, expect, it } from 'vitest';
import type { StudyDefinition } from '../model/study-definition.ts';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { compareDefinitions } from './compare-definitions.ts';

describe('compareDefinitions', () => {
  it('finds nothing between a definition and itself', () => {
    const comparison = compareDefinitions(tmPerforationStudy, tmPerforationStudy);
    expect(comparison.items).toEqual({ added: [], removed: [], changed: [] });
    expect(comparison.forms).toEqual({ added: [], removed: [] });
  });

  it('finds nothing between a definition and its copy with keys in another order (as PostgreSQL stores it)', () => {
    const reorder = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reorder)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, inner]) => [key, reorder(inner)]),
            )
          : value;
    const comparison = compareDefinitions(tmPerforationStudy, reorder(tmPerforationStudy) as StudyDefinition);
    expect(comparison.items.changed).toEqual([]);
    expect(comparison.codeLists.changed).toEqual([]);
  });

  it('lists every item of a first definition as added', () => {
    const comparison = compareDefinitions(null, tmPerforationStudy);
    expect(comparison.forms.added).toHaveLength(tmPerforationStudy.forms.length);
    expect(comparison.items.added).toContain('demographicInfo.birthDate');
  });

  it('names removed forms and items, and what changed in an item', () => {
    const changed = structuredClone(tmPerforationStudy) as StudyDefinition;
    const demographics = changed.forms.find((form) => form.key === 'demographicInfo');
    const section = demographics?.sections[0];
    if (!section) throw new Error('the study has demographics');
    section.items = section.items
      .filter((item) => item.key !== 'gender')
      .map((item) =>
        item.key === 'birthDate' ? { ...item, type: 'text', label: { ko: '생일', en: 'Birthday' } } : item,
      );
    changed.forms = changed.forms.filter((form) => form.key !== 'labTest');
    const comparison = compareDefinitions(tmPerforationStudy, changed);
    expect(comparison.forms.removed).toEqual(['labTest']);
    expect(comparison.items.removed).toContain('demographicInfo.gender');
    expect(comparison.items.removed).toContain('labTest.wbcResult');
    expect(comparison.items.changed).toEqual([
      { item: 'demographicInfo.birthDate', changes: ['type', 'label'] },
    ]);
  });
});
