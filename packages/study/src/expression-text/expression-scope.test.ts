import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expression } from '../model/expression.ts';
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

interface Probe {
  ref: string;
  /** The form of the check it is written in; none for a status rule. */
  formKey: string | undefined;
}

/**
 * Which probes findDefinitionProblemTexts accepts: each is written into one copy of the definition at once
 * (a check per probe in its form, or a reference of the `ongoing` status rule), and a probe is refused when
 * a problem names its check or its reference. One pass, so that a thousand probes stay fast.
 */
function acceptedByDefinition(probes: Probe[]): boolean[] {
  const copy = structuredClone(definition);
  const statusRefs: Expression[] = [];
  probes.forEach(({ ref, formKey }, index) => {
    if (formKey === undefined) {
      statusRefs.push({ ref });
      return;
    }
    const form = copy.forms.find((f) => f.key === formKey);
    if (!form) throw new Error(`no form ${formKey}`);
    const item = form.sections[0]?.items[0]?.key as string;
    const message = { ko: '확인', en: 'probe' };
    form.checks = [
      ...(form.checks ?? []),
      { id: `probe${index}`, item, when: { ref }, severity: 'query', message },
    ];
  });
  if (!copy.subjectStatus) throw new Error('TMP-2026 has status rules');
  copy.subjectStatus.ongoing = { op: 'and', args: statusRefs };
  const problems = findDefinitionProblemTexts(copy).map((problem) => problem.en);
  return probes.map(({ ref, formKey }, index) =>
    formKey === undefined
      ? !problems.includes(`subjectStatus.ongoing: reference ${ref} must name a visit, form and item`)
      : !problems.some((problem) => problem.startsWith(`check probe${index}: `)),
  );
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
    const probes = fc.sample(
      fc.record({ ref, formKey: fc.option(fc.constantFrom(...forms), { nil: undefined }) }),
      { numRuns: 1500, seed: 48 },
    );
    const accepted = acceptedByDefinition(probes);
    // Both answers come up often, or the comparison would say little.
    expect(accepted.filter(Boolean).length).toBeGreaterThan(100);
    expect(accepted.filter((a) => !a).length).toBeGreaterThan(100);
    probes.forEach((probe, index) => {
      const context = probe.formKey === undefined ? { definition } : { definition, formKey: probe.formKey };
      expect({ ...probe, accepted: referenceProblem(probe.ref, context) === null }).toEqual({
        ...probe,
        accepted: accepted[index],
      });
    });
  });
});
