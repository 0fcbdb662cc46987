import type { StudyRoles } from '../../model/study-definition.ts';

/**
 * What the application reads of TMP-2026's forms (issue 45 item 3): the server and web take these
 * pointers from the definition instead of naming the study's keys.
 */
export const roles: StudyRoles = {
  registration: {
    visit: 'consentScreening',
    form: 'consentScreening',
    consentDate: 'consentDate',
    initials: 'initials',
    screeningNumber: 'screeningNumber',
  },
  demographics: {
    visit: 'v1',
    form: 'demographicInfo',
    sex: 'gender',
    femaleCode: 'F',
    maleCode: 'M',
    age: 'age',
  },
  randomization: {
    visit: 'v2',
    form: 'randomizationNumber',
    eligible: 'suitable',
    assignmentDate: 'assignmentDate',
    number: 'randomizationNumber',
    group: 'group',
  },
  signing: {
    visit: 'all',
    form: 'testDirectorSigning',
    signatureDate: 'signatureDate',
    signerName: 'signature',
  },
  adverseEvents: {
    visit: 'all',
    form: 'adverseEvent',
    rows: 'events',
    serious: 'serious',
    term: 'name',
    startDate: 'startDate',
    endDate: 'endDate',
    severity: 'severity',
    causality: 'causality',
    actionTaken: 'deviceAction',
    outcome: 'outcome',
  },
  endOfStudy: {
    visit: 'all',
    form: 'endExamination',
    screeningFailureReason: 'screeningFailureReason',
    dropoutReason: 'dropoutReason',
  },
  eligibility: {
    form: 'inclusionExclusionEval',
    decision: 'eligible',
    inclusionSection: 'inclusion',
    exclusionSection: 'exclusion',
  },
  treatmentApplication: {
    visit: 'v2',
    form: 'deviceApplication',
    applied: 'applied',
    date: 'applicationDate',
  },
  pregnancyTest: { form: 'pregnancyTest', childbearingPotential: 'childbearingPotential', result: 'result' },
  labPanel: { form: 'labTest', specimenDate: 'specimenDate' },
  audiogram: {
    form: 'ptaTest',
    treatedEar: {
      visit: 'v1',
      form: 'diseaseBasicInfo',
      item: 'applicationSite',
      rightCode: 'R',
      leftCode: 'L',
    },
  },
  healing: { form: 'tympanicPhoto', outcome: 'evaluation' },
  keyMeasures: { form: 'ptaTest', items: ['airAverage', 'boneAverage'] },
  eventsOfInterest: { form: 'interestAdverseEvent', items: ['pain', 'otorrhea', 'reperforation'] },
};
