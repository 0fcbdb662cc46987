import type { FormValues, SubjectData } from '../../model/json-value.ts';

// A complete, consistent subject for this study: every form of every visit filled in, no required item
// missing, no check failing except the visit-date-before-today warnings. Tests start from it and change one
// thing; the server and the e2e suite may use it as seed data. Dates suit SAMPLE_TODAY.

export const SAMPLE_TODAY = '2025-06-20';

const labPanel: Record<string, number | string> = {
  wbc: 6.2,
  rbc: 4.6,
  hemoglobin: 14.1,
  hematocrit: 42,
  platelet: 250,
  bun: 14,
  creatinine: 0.9,
  ast: 22,
  alt: 19,
  albumin: 4.4,
  totalProtein: 7.1,
  totalBilirubin: 0.7,
  glucose: 92,
  cholesterol: 180,
  egfr: 95,
  pt: 11.8,
  aptt: 31.2,
  urineRbc: 'negative',
  urineAlbumin: 'negative',
  urineGlucose: 'negative',
  urinePh: 6,
  urineWbc: 'negative',
};

function labTest(specimenDate: string): FormValues {
  const values: FormValues = { nd: false, specimenDate };
  for (const [key, result] of Object.entries(labPanel)) {
    values[`${key}Result`] = result;
    values[`${key}Normal`] = 'normal';
  }
  return values;
}

function visitDay(visitDate: string): FormValues {
  return { visitDate, queryRadio: '001' };
}

const physicalExam: FormValues = { nd: false, result: 'normal' };
const vitalSigns: FormValues = {
  nd: false,
  bloodPressureSystolic: 120,
  bloodPressureDiastolic: 78,
  heartRate: 72,
  bodyTemperature: 36.6,
  result: 'normal',
};
const otoscopy: FormValues = { nd: false, perforation: 'Y', perforationSize: 3.5, otorrhea: 'N' };
const impedance = (examDate: string): FormValues => ({ nd: false, examDate, result: 'B' });
const interest = (collectionDate: string): FormValues => ({
  nd: false,
  collectionDate,
  pain: 'N',
  otorrhea: 'N',
  reperforation: 'N',
});
const followUpPhoto = (perforationDiameter: number, evaluation: string): FormValues => ({
  perforationDiameter,
  regeneration: 'Y',
  evaluation,
});

export function sampleSubject(): SubjectData {
  // Shared building blocks appear in several visits: a JSON copy unshares them, so changing one visit
  // changes only that visit.
  return JSON.parse(
    JSON.stringify({
      consentScreening: {
        consentScreening: { consentDate: '2025-03-03', initials: 'HGD', screeningNumber: 'S01-001' },
      },
      v1: {
        visitDay: visitDay('2025-03-10'),
        demographicInfo: { birthDate: '1980-05-15', gender: 'F' },
        diseaseBasicInfo: {
          perforationSite: 'R',
          applicationSite: 'R',
          pain: 'none',
          tinnitus: 'mild',
          dizziness: 'none',
          earDischarge: 'N',
        },
        bodyMeasurement: { nd: false, measurementDate: '2025-03-10', height: 165, weight: 60 },
        physicalExam,
        medicalHistory: {
          none: false,
          histories: [{ content: 'Hypertension', startDate: '2019-01-01', ongoing: true }],
        },
        vitalSigns,
        labTest: labTest('2025-03-10'),
        pregnancyTest: { childbearingPotential: 'Y', testMethod: 'urineHcg', result: 'negative' },
        otoscopyEndoscopy: otoscopy,
        tympanicPhoto: { totalDiameter: 10, perforationDiameter: 4 },
        tbctImaging: { nd: false, imagingDate: '2024-11-02', fractureOrDamage: 'N' },
        impedanceAudiometry: impedance('2025-03-10'),
        ptaTest: {
          airNd: false,
          air500: 30,
          air1000: 35,
          air2000: 40,
          air4000: 45,
          boneNd: false,
          bone500: 10,
          bone1000: 15,
          bone2000: 20,
          bone4000: 25,
        },
        inclusionExclusionEval: {
          eligible: 'Y',
          inc01: 'Y',
          inc02: 'Y',
          inc03: 'Y',
          inc04: 'Y',
          exc01: 'N',
          exc02: 'N',
          exc03: 'N',
          exc04: 'N',
          exc05: 'N',
          exc06: 'N',
          exc07: 'N',
          exc08: 'N',
          exc09: 'N',
        },
      },
      v2: {
        visitDay: visitDay('2025-03-24'),
        physicalExam,
        vitalSigns,
        otoscopyEndoscopy: otoscopy,
        tympanicPhoto: { perforationDiameter: 4 },
        ptaTest: {
          airNd: false,
          air500: 30,
          air1000: 35,
          air2000: 40,
          air4000: 45,
          boneNd: false,
          bone500: 10,
          bone1000: 15,
          bone2000: 20,
          bone4000: 25,
        },
        inclusionExclusionEval: {
          eligible: 'Y',
          inc01: 'Y',
          inc02: 'Y',
          inc03: 'Y',
          inc04: 'Y',
          exc01: 'N',
          exc02: 'N',
          exc03: 'N',
          exc04: 'N',
          exc05: 'N',
          exc06: 'N',
          exc07: 'N',
          exc08: 'N',
          exc09: 'N',
        },
        randomizationNumber: {
          assignmentDate: '2025-03-24',
          randomizationNumber: 'R01001',
          group: 'treatment',
        },
        deviceApplication: {
          applied: 'Y',
          site: 'R',
          applicationDate: '2025-03-24',
          applicationTime: '10:30',
        },
        interestAdverseEvent: interest('2025-03-24'),
      },
      v3: {
        visitDay: visitDay('2025-04-07'),
        physicalExam,
        vitalSigns,
        otoscopyEndoscopy: otoscopy,
        tympanicPhoto: { perforationDiameter: 3 },
        impedanceAudiometry: impedance('2025-04-07'),
        interestAdverseEvent: interest('2025-04-07'),
      },
      v4: {
        visitDay: visitDay('2025-04-21'),
        physicalExam,
        vitalSigns,
        otoscopyEndoscopy: otoscopy,
        tympanicPhoto: followUpPhoto(2, 'partialHealing'),
        impedanceAudiometry: impedance('2025-04-21'),
        interestAdverseEvent: interest('2025-04-21'),
      },
      v5: {
        visitDay: visitDay('2025-05-19'),
        physicalExam,
        vitalSigns,
        otoscopyEndoscopy: otoscopy,
        tympanicPhoto: followUpPhoto(1, 'partialHealing'),
        impedanceAudiometry: impedance('2025-05-19'),
        interestAdverseEvent: interest('2025-05-19'),
      },
      v6: {
        visitDay: { nd: false, ...visitDay('2025-06-16') },
        physicalExam,
        vitalSigns,
        labTest: labTest('2025-06-16'),
        pregnancyTest: { childbearingPotential: 'Y', testMethod: 'urineHcg', result: 'negative' },
        otoscopyEndoscopy: { nd: false, perforation: 'N', otorrhea: 'N' },
        tympanicPhoto: followUpPhoto(0, 'completeHealing'),
        impedanceAudiometry: impedance('2025-06-16'),
        interestAdverseEvent: interest('2025-06-16'),
      },
      all: {
        adverseEvent: { hasAdverseEvent: 'N' },
        concomitantDrugs: {
          nd: false,
          hasConcomitantDrugs: 'Y',
          drugs: [
            {
              drugName: 'Amlodipine',
              dose: 5,
              unit: 'mg',
              frequency: 'QD',
              route: 'oral',
              startDate: '2019-01-01',
              ongoing: true,
              indication: 'Hypertension',
            },
          ],
        },
        treatmentInvestigation: { hasTreatment: 'N' },
        endExamination: { completed: 'Y', observationEndDate: '2025-06-16' },
        testDirectorSigning: { signatureDate: '2025-06-18', signature: '김시험' },
      },
    }),
  ) as SubjectData;
}
