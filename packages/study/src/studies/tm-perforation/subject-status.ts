import { and, eq, notEmpty, or, ref } from '../../model/expression-builders.ts';
import type { SubjectStatusRules } from '../../model/study-definition.ts';

/**
 * product.md "Subject status workflow" for this study: Screening → Screening-failure (eligibility
 * "no" at V1 or V2, positive pregnancy at screening, TBCT fracture/damage, or end of study answered
 * "screening failure") or Ongoing (randomized at V2) → Complete (completed per protocol) or
 * Drop-out (not completed).
 */
export const subjectStatusRules: SubjectStatusRules = {
  complete: eq(ref('all.endExamination.completed'), 'Y'),
  dropout: eq(ref('all.endExamination.completed'), 'N'),
  screeningFailure: or(
    eq(ref('all.endExamination.completed'), 'SF'),
    eq(ref('v1.inclusionExclusionEval.eligible'), 'N'),
    eq(ref('v2.inclusionExclusionEval.eligible'), 'N'),
    eq(ref('v1.tbctImaging.fractureOrDamage'), 'Y'),
    and(
      eq(ref('v1.pregnancyTest.childbearingPotential'), 'Y'),
      eq(ref('v1.pregnancyTest.result'), 'positive'),
    ),
  ),
  ongoing: notEmpty(ref('v2.randomizationNumber.randomizationNumber')),
};
