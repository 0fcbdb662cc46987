import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import {
  findDefinitionProblems,
  isSigningForm,
  type StudyDefinition,
  type StudyRoles,
} from './study-definition.ts';

// The roles' cross-checks (issue 45 item 3), on TMP-2026, the study that declares every role.

const withRoles = (roles: StudyRoles | undefined): StudyDefinition => ({ ...tmPerforationStudy, roles });
const rolesOf = (): StudyRoles => JSON.parse(JSON.stringify(tmPerforationStudy.roles)) as StudyRoles;

describe('study roles', () => {
  it('accepts TMP-2026 roles, and a study without roles', () => {
    expect(findDefinitionProblems(tmPerforationStudy)).toEqual([]);
    expect(findDefinitionProblems(withRoles(undefined))).toEqual([]);
    expect(findDefinitionProblems(withRoles({}))).toEqual([]);
    expect(isSigningForm(tmPerforationStudy, 'all', 'testDirectorSigning')).toBe(true);
    expect(isSigningForm(tmPerforationStudy, 'v1', 'testDirectorSigning')).toBe(false);
    expect(isSigningForm(withRoles(undefined), 'all', 'testDirectorSigning')).toBe(false);
  });

  it('finds unknown forms, visits, sections and items', () => {
    const roles = rolesOf();
    if (roles.registration) roles.registration.visit = 'v1';
    if (roles.demographics) roles.demographics.visit = 'v2';
    if (roles.endOfStudy) roles.endOfStudy.form = 'ghost';
    if (roles.eligibility) roles.eligibility.exclusionSection = 'ghost';
    if (roles.adverseEvents) roles.adverseEvents.rows = 'ghost';
    if (roles.healing) roles.healing.outcome = 'ghost';
    if (roles.labPanel) roles.labPanel.specimenDate = 'wbcResult';
    if (roles.audiogram?.treatedEar) roles.audiogram.treatedEar.rightCode = 'right';
    expect(findDefinitionProblems(withRoles(roles))).toEqual([
      'roles.registration: visit v1 has no form consentScreening',
      'roles.demographics: visit v2 has no form demographicInfo',
      'roles.adverseEvents: ghost is not a repeating group of adverseEvent',
      'roles.endOfStudy: unknown form ghost',
      'roles.eligibility: unknown section ghost',
      'roles.labPanel: item wbcResult must be date',
      'roles.audiogram: applicationSite has no code right',
      'roles.healing: unknown item ghost',
    ]);
  });

  it('finds items of a type the application cannot read, and codes the sex item lacks', () => {
    const roles = rolesOf();
    if (roles.registration) roles.registration.screeningNumber = 'consentDate';
    if (roles.demographics) {
      roles.demographics.femaleCode = 'W';
      roles.demographics.age = 'gender';
    }
    if (roles.treatmentApplication) roles.treatmentApplication.date = 'applied';
    if (roles.signing) roles.signing.signerName = 'signatureDate';
    if (roles.randomization) {
      roles.randomization.eligible = 'assignmentDate';
      roles.randomization.group = 'suitable';
    }
    if (roles.keyMeasures) roles.keyMeasures.items = ['airAverage', 'airSeverity', 'airAverage'];
    if (roles.eventsOfInterest) roles.eventsOfInterest.items = ['pain', 'collectionDate'];
    // The decision and the criteria are yes or no.
    roles.eligibility = {
      form: 'ptaTest',
      decision: 'airNd',
      inclusionSection: 'air',
      exclusionSection: 'bone',
    };
    // An item outside the repeating group is not a row's item.
    if (roles.adverseEvents) {
      roles.adverseEvents.serious = 'hasAdverseEvent';
      roles.adverseEvents.outcome = 'startDate';
    }
    expect(findDefinitionProblems(withRoles(roles))).toEqual([
      'roles.registration: item consentDate must be text',
      'roles.demographics: gender has no code W',
      'roles.demographics: item gender must be integer or decimal',
      'roles.randomization: item assignmentDate must be yesNo',
      "roles.randomization: assignmentDate must be derived (the study's rule)",
      'roles.randomization: item suitable must be singleChoice',
      'roles.signing: item signatureDate must be text',
      'roles.adverseEvents: unknown item hasAdverseEvent',
      'roles.adverseEvents: item startDate must be singleChoice',
      'roles.eligibility: item airNd must be yesNo',
      'roles.eligibility: the criteria of air must be yesNo items',
      'roles.eligibility: the criteria of bone must be yesNo items',
      'roles.treatmentApplication: item applied must be date',
      'roles.keyMeasures: item airSeverity must be integer or decimal',
      'roles.keyMeasures: item airAverage is listed twice',
      'roles.eventsOfInterest: item collectionDate must be yesNo',
    ]);
  });
});
