import { describe, expect, it } from 'vitest';
import {
  amendmentChangeSet,
  amendmentDeclarationsSchema,
  computeFormStatus,
  evaluateSubject,
  expr,
  migrateFormValues,
  STUDY_PACKAGE_VERSION,
  studyDefinitionSchema,
  studyRoleField,
  studyRoleFields,
  tmPerforationStudy,
  validateFormValues,
} from './index.ts';

describe('@cdms/study', () => {
  it('exports its version', () => {
    expect(STUDY_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exports the model, the engine and the first study', () => {
    expect(studyDefinitionSchema.safeParse(tmPerforationStudy).success).toBe(true);
    expect(evaluateSubject(tmPerforationStudy, {}, { today: '2025-01-01' }).forms.length).toBeGreaterThan(50);
    expect(validateFormValues(tmPerforationStudy, 'v1', 'visitDay', { visitDate: '2025-01-01' }).valid).toBe(
      true,
    );
    expect(computeFormStatus({ inVisit: true, saved: false, openQueryCount: 0, missingCount: 0 })).toBe(
      'none',
    );
    expect(expr.isYes('eligible')).toEqual({ op: 'eq', args: [{ ref: 'eligible' }, 'Y'] });
    expect(studyRoleFields.audiogram.treatedEar.kind).toBe('part');
    expect(studyRoleField('audiogram', 'form')).toEqual({ kind: 'form' });
  });

  it('exports the amendment change set and the migration of stored values', () => {
    const changeSet = amendmentChangeSet(tmPerforationStudy, tmPerforationStudy, {});
    expect(changeSet.ready).toBe(true);
    expect(amendmentDeclarationsSchema.parse({})).toEqual({});
    expect(migrateFormValues(changeSet, 'v1', 'visitDay', { visitDate: '2025-01-01' })).toEqual({
      formKey: 'visitDay',
      values: { visitDate: '2025-01-01' },
      retired: {},
    });
  });
});
