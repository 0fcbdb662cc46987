import type { StudyDefinition } from '@cdms/study';

// Its own file: the lab ranges read the demographics below the read model, which reads them all.

/** A form the subject facts read: at one visit, or (`visitKey` null) at whatever visit it appears. */
export interface FactSourceForm {
  visitKey: string | null;
  formKey: string;
}

/**
 * The forms whose values the subject facts and the visit facts read, from the study's roles
 * (issue 45 item 3): the demographics, adverse events, end of study and treatment application at their
 * visits, and the eligibility, pregnancy test, healing and hearing forms wherever they appear.
 * A study without a role reads nothing for it. (The visit-date form comes from `definition.visitDate`.)
 */
export function factSourceForms(definition: StudyDefinition): FactSourceForm[] {
  const roles = definition.roles ?? {};
  const atVisit = [
    roles.demographics,
    roles.adverseEvents,
    roles.endOfStudy,
    roles.treatmentApplication,
  ].flatMap((role) => (role ? [{ visitKey: role.visit, formKey: role.form }] : []));
  const anywhere = [roles.eligibility, roles.pregnancyTest, roles.healing, roles.keyMeasures].flatMap(
    (role) => (role ? [{ visitKey: null, formKey: role.form }] : []),
  );
  return [...atVisit, ...anywhere];
}
