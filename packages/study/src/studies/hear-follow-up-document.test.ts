import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import hearFollowUp from '../../definitions/hear-followup.json';
import committedJsonSchema from '../../definitions/study-definition.schema.json';
import { studyDefinitionSchema } from '../model/study-definition.ts';

// HEAR-2027's design (issue 45 item 5) is written as a document, not generated from TypeScript: the
// file itself is the source, as a data manager's upload is. These checks are what an upload meets.

describe('HEAR-2027 definition document (hear-followup.json)', () => {
  it('is a valid definition for the zod schema, cross-checks included', () => {
    const parsed = studyDefinitionSchema.safeParse(hearFollowUp);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('is accepted by the JSON Schema editors and tools use', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(committedJsonSchema);
    expect(validate(hearFollowUp) ? [] : validate.errors).toEqual([]);
  });

  it('is another design than TMP-2026: no randomization, a repeating group, a derived score', () => {
    const definition = studyDefinitionSchema.parse(hearFollowUp);
    const items = definition.forms.flatMap((form) => form.sections.flatMap((section) => section.items));
    expect(definition.visits.map((visit) => visit.key)).toEqual([
      'enrolment',
      'baseline',
      'month6',
      'month12',
      'all',
    ]);
    expect(definition.unscheduledVisit?.forms).toContain('audiometry');
    expect(items.some((item) => item.key === 'randomizationNumber')).toBe(false);
    expect(definition.forms.some((form) => form.sections.some((section) => section.repeating))).toBe(true);
    expect(items.find((item) => item.key === 'totalScore')?.derive).toBeDefined();
  });
});
