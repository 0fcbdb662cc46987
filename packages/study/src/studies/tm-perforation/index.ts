import document from '../../../definitions/tm-perforation.json' with { type: 'json' };
import {
  type ItemDefinition,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../../model/study-definition.ts';

// TMP-2026, the chronic tympanic membrane perforation device study (spec §2 "Form content", §5), is written
// as a document like any study (definitions/tm-perforation.json, docs/STUDY-DEFINITION.md): the server
// installs that file, and the engine's tests and the benchmark read it here, checked by the same schema.

/** TMP-2026's definition, parsed from its document (cross-checks included). */
export const tmPerforationStudy: StudyDefinition = studyDefinitionSchema.parse(document);

/** The yes/no criteria of one section of the eligibility form (the study's `roles.eligibility`). */
function eligibilityCriteria(section: 'inclusionSection' | 'exclusionSection'): ItemDefinition[] {
  const role = tmPerforationStudy.roles?.eligibility;
  const form = tmPerforationStudy.forms.find((entry) => entry.key === role?.form);
  return form?.sections.find((entry) => entry.key === role?.[section])?.items ?? [];
}

/** Inclusion criteria: "Y" means the criterion is met. */
export const inclusionCriteria = eligibilityCriteria('inclusionSection');

/** Exclusion criteria: "Y" means the criterion applies. */
export const exclusionCriteria = eligibilityCriteria('exclusionSection');
