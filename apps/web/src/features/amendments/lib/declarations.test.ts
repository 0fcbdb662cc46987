import { describe, expect, it } from 'vitest';
import { answerCodeMapping, declarationEntries, withoutDeclaration } from './declarations.ts';

describe('declarations', () => {
  const declarations = {
    formRenames: [{ from: 'AE', to: 'AEV2' }],
    replacements: [
      { form: 'VS', removed: 'PULSE', added: 'HR' },
      { removed: 'OLD', added: 'NEW' },
    ],
  };

  it('lists every declaration with its list and place', () => {
    expect(declarationEntries(declarations).map((entry) => `${entry.kind}#${entry.index}`)).toEqual([
      'formRenames#0',
      'replacements#0',
      'replacements#1',
    ]);
  });

  it('takes one declaration out, and a list it leaves empty', () => {
    expect(withoutDeclaration(declarations, { kind: 'replacements', index: 0 })).toEqual({
      formRenames: [{ from: 'AE', to: 'AEV2' }],
      replacements: [{ removed: 'OLD', added: 'NEW' }],
    });
    expect(withoutDeclaration(declarations, { kind: 'formRenames', index: 0 })).toEqual({
      replacements: declarations.replacements,
    });
  });

  it('starts a code list’s mapping, or merges into the one it has', () => {
    const started = answerCodeMapping({}, 'SEX', { F: 'FEMALE' });
    expect(started).toEqual({ codeMappings: [{ codeList: 'SEX', map: { F: 'FEMALE' } }] });
    expect(answerCodeMapping(started, 'SEX', { U: 'UNKNOWN', F: 'WOMAN' })).toEqual({
      codeMappings: [{ codeList: 'SEX', map: { F: 'WOMAN', U: 'UNKNOWN' } }],
    });
  });
});
