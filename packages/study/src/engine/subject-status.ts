import type { SubjectData } from '../model/json-value.ts';
import type { StudyDefinition, SubjectStatusRules } from '../model/study-definition.ts';
import { holds } from './evaluate-expression.ts';

export type SubjectStatus = 'screening' | 'screening_failure' | 'ongoing' | 'complete' | 'dropout';

/** Which rule decided, in order of precedence (see `subjectStatusRulesSchema`). */
const ruleOrder: [keyof SubjectStatusRules, SubjectStatus][] = [
  ['complete', 'complete'],
  ['dropout', 'dropout'],
  ['screeningFailure', 'screening_failure'],
  ['ongoing', 'ongoing'],
];

/**
 * A subject's status from their data (with derived values filled in): the first rule of the
 * definition that holds, or Screening. `rule` names the cause, for the audit trail.
 */
export function computeSubjectStatus(
  definition: StudyDefinition,
  data: SubjectData,
  today: string,
): { status: SubjectStatus; rule: keyof SubjectStatusRules | null } {
  const rules = definition.subjectStatus;
  if (!rules) return { status: 'screening', rule: null };
  const context = { data, visitKey: 'all', formKey: '', today, params: definition.parameters };
  for (const [rule, status] of ruleOrder) {
    if (holds(rules[rule], context)) return { status, rule };
  }
  return { status: 'screening', rule: null };
}
