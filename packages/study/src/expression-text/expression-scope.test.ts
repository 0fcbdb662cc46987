import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findDefinitionProblemTexts,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../model/study-definition.ts';
import { referenceProblem } from './expression-scope.ts';

const definitions = path.resolve(import.meta.dirname, '../../definitions');
const definition: StudyDefinition = studyDefinitionSchema.parse(
  JSON.parse(fs.readFileSync(path.join(definitions, 'tm-perforation.json'), 'utf8')),
);

/** Whether findDefinitionProblemTexts accepts the reference in a check of the form (or in a status rule). */
function definitionAccepts(ref: string, formKey: string | undefined): boolean {
  const copy = structuredClone(definition);
  if (formKey === undefined) {
    if (!copy.subjectStatus) throw new Error('TMP-2026 has status rules');
    copy.subjectStatus.ongoing = { ref };
  } else {
    const form = copy.forms.find((f) => f.key === formKey);
    if (!form) throw new Error(`no form ${formKey}`);
    const item = form.sections[0]?.items[0]?.key as string;
    const probe = {
      id: 'probe',
      item,
      when: { ref },
      severity: 'query' as const,
      message: { ko: '확인', en: 'probe' },
    };
    form.checks = [...(form.checks ?? []), probe];
  }
  return findDefinitionProblemTexts(copy).length === 0;
}

describe('referenceProblem', () => {
  // Parts drawn from the definition's own keys (and one unknown), so that most combinations are close calls.
  const visits = definition.visits.map((v) => v.key);
  const forms = definition.forms.map((f) => f.key);
  const items = [
    ...new Set(
      definition.forms.flatMap((f) =>
        [f.sections, ...(f.variants ?? []).map((v) => v.sections)]
          .flat()
          .flatMap((s) => s.items.map((i) => i.key)),
      ),
    ),
  ];
  const part = (keys: string[]) =>
    fc.oneof({ arbitrary: fc.constantFrom(...keys), weight: 9 }, fc.constant('unknownKey'));
  const ref = fc.oneof(
    part(items),
    fc.tuple(part(forms), part(items)).map((p) => p.join('.')),
    fc.tuple(part(visits), part(forms), part(items)).map((p) => p.join('.')),
    // Keys of the right form, so that known references come up often.
    fc.constantFrom(...forms).chain((formKey) => {
      const form = definition.forms.find((f) => f.key === formKey);
      const keys = (form?.sections ?? []).flatMap((s) => s.items.map((i) => i.key));
      return fc.tuple(part(visits), fc.constant(formKey), fc.constantFrom(...keys)).map((p) => p.join('.'));
    }),
  );

  it('accepts exactly the references findDefinitionProblemTexts accepts', () => {
    fc.assert(
      fc.property(ref, fc.option(fc.constantFrom(...forms), { nil: undefined }), (reference, formKey) => {
        const context = formKey === undefined ? { definition } : { definition, formKey };
        expect(referenceProblem(reference, context) === null).toBe(definitionAccepts(reference, formKey));
      }),
      { numRuns: 300 },
    );
  });
});
