import type { Expression } from '../model/expression.ts';
import type { StudyDefinition } from '../model/study-definition.ts';

/** Where an expression sits in a definition, as a path a designer can follow. */
export interface PlacedExpression {
  where: string;
  expression: Expression;
  /** The form it belongs to (its one- and two-part references are read there); none for status rules. */
  formKey?: string;
}

/**
 * Every expression of a definition with where it sits: sections' and items' showWhen, requiredWhen and
 * derive (default layout and variants), checks' and outcomes' `when`, and the subject status rules: the
 * places the zod schemas of model/study-definition.ts hold an expression.
 */
export function eachExpression(definition: StudyDefinition): PlacedExpression[] {
  const placed: PlacedExpression[] = [];
  const add = (where: string, expression: Expression | undefined, formKey?: string) => {
    if (expression !== undefined) placed.push({ where, expression, ...(formKey ? { formKey } : {}) });
  };
  for (const form of definition.forms) {
    const layouts = [
      { name: form.key, sections: form.sections },
      ...(form.variants ?? []).map((variant, index) => ({
        name: `${form.key}.variants[${index}]`,
        sections: variant.sections,
      })),
    ];
    for (const layout of layouts) {
      for (const section of layout.sections) {
        add(`${layout.name}.${section.key}.showWhen`, section.showWhen, form.key);
        for (const item of section.items) {
          add(`${layout.name}.${item.key}.showWhen`, item.showWhen, form.key);
          add(`${layout.name}.${item.key}.requiredWhen`, item.requiredWhen, form.key);
          add(`${layout.name}.${item.key}.derive`, item.derive, form.key);
        }
      }
    }
    for (const check of form.checks ?? []) add(`check ${check.id}.when`, check.when, form.key);
    for (const outcome of form.outcomes ?? []) add(`outcome ${outcome.id}.when`, outcome.when, form.key);
  }
  for (const [rule, expression] of Object.entries(definition.subjectStatus ?? {}))
    add(`subjectStatus.${rule}`, expression);
  return placed;
}
