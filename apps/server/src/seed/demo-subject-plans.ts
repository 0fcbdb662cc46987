// The cast of the living demo: 31 fictional subjects of TMP-2026 across the three demo sites, each at
// a different point of the study. Every date is counted back from the day the seed runs (consent
// `consentDaysAgo` days ago; screening 1–3 days later; baseline V2 14 days after screening; follow-ups
// inside their windows), so the demo never ages: visits fall due, run late or come up soon on any day
// it is started. Nothing here is real data. demo-casebooks.ts turns each plan into the form saves a
// site would make; demo-subjects.ts makes them through the API's own commands.

export type InstitutionNumber = '01' | '02' | '03';
export type Side = 'L' | 'R';
export type FollowUpVisit = 'v2' | 'v3' | 'v4' | 'v5';
export type AeVisit = 'v2' | 'v3' | 'v4' | 'v5' | 'v6';

/** How the membrane heals over the follow-up visits (diameters shrink accordingly). */
export type Healing = 'complete' | 'partial' | 'none';

export interface HistoryPlan {
  content: string;
  /** Days before the screening visit the condition began. */
  startedDaysBeforeScreening: number;
  /** Days before screening it ended; absent while it goes on. */
  endedDaysBeforeScreening?: number;
}

export interface MedicationPlan {
  drugName: string;
  dose: number;
  unit: string;
  frequency: string;
  route: 'oral' | 'otic' | 'topical' | 'intravenous';
  indication: string;
  startedDaysBeforeScreening: number;
  endedDaysBeforeScreening?: number;
}

export interface AdverseEventPlan {
  name: string;
  /** The visit at which the event is first known (its interest form records it when it is of interest). */
  visit: AeVisit;
  /** Onset relative to that visit's date (negative: before the visit, reported at it). */
  onsetDaysFromVisit: number;
  /** Days until it resolved; null while it goes on. */
  durationDays: number | null;
  serious: boolean;
  severity: 'mild' | 'moderate' | 'severe';
  causality: 'certain' | 'probable' | 'possible' | 'unlikely' | 'notRelated';
  deviceAction: 'none' | 'removed' | 'notApplicable';
  /** Outcome once resolved; while ongoing the outcome is "recovering". */
  outcome: 'recovered' | 'recoveredWithSequelae' | 'notRecovered';
  /** The event of interest ticked on the visit's interest form. */
  interest?: 'pain' | 'otorrhea' | 'reperforation';
  /** Medication given for it, added to the concomitant medication from the onset. */
  treatment?: Omit<MedicationPlan, 'startedDaysBeforeScreening' | 'endedDaysBeforeScreening'>;
  others?: string;
}

export type ScreeningFailureCause =
  /** V1 eligibility "no": perforation larger than the protocol's 60 %. */
  | 'perforationTooLarge'
  /** V1 eligibility "no": allergy to lidocaine (exclusion 03). */
  | 'lidocaineAllergy'
  /** Positive pregnancy test at screening. */
  | 'pregnancy'
  /** Temporal bone CT shows ossicular damage. */
  | 'tbctFracture'
  /** Consent withdrawn during screening: end of study answered "screening failure". */
  | 'consentWithdrawn'
  /** Otorrhoea at baseline: V2 eligibility "no". */
  | 'otorrheaAtBaseline';

export type DemoCourse =
  /** Registered today: consent only. */
  | { stage: 'registered' }
  /** In screening: the first `v1Forms` V1 forms entered (all 15: eligible, waiting for V2). */
  | { stage: 'screening'; v1Forms: number }
  | { stage: 'screeningFailure'; cause: ScreeningFailureCause }
  /** Randomized and followed up to `lastVisit`. */
  | { stage: 'ongoing'; lastVisit: FollowUpVisit }
  | { stage: 'complete' }
  | {
      stage: 'dropout';
      lastVisit: FollowUpVisit;
      /** dropoutReason code 001–010. */
      reason: '001' | '002' | '003' | '005' | '007';
      daysAfterLastVisit: number;
      detail: string;
    };

/**
 * Things that happen on the way: data entered wrongly and corrected with a reason (the audit trail's
 * changes), and data that rightly fail a query-severity check (open system queries).
 */
export type Twist =
  /** Eardrum photos drawn and traced at every tympanicPhoto visit (issue 19). */
  | 'eardrumPhotos'
  /** V1 blood pressure entered the wrong way round (a query opens), corrected the next day. */
  | 'bloodPressureSwapped'
  /** V1 weight mistyped, corrected from the source record. */
  | 'weightCorrected'
  /** Birth date off by a year, corrected from the ID card. */
  | 'birthDateCorrected'
  /** A condition ended more than 12 weeks before screening (query: collection window). */
  | 'oldHistory'
  /** Screening labs taken 18 days before screening (query: 2-week substitution window). */
  | 'oldLabs'
  /** Temporal bone CT more than a year old (query: 1-year substitution window). */
  | 'oldCt'
  /** Device applied the day after the V2 visit (query: date differs from the visit). */
  | 'deviceNextDay'
  /** Bone conduction not done at V2 while eligible (query: reconfirm eligibility). */
  | 'baselineBoneNotDone'
  /** Ear discharge at screening while eligible (query: reconfirm eligibility). */
  | 'screeningDischarge'
  /** V3 six days after its window's middle: done out of window. */
  | 'lateV3'
  /** An abnormal, not clinically significant finding on the V1 physical examination. */
  | 'skinFinding'
  /** Glucose above the reference range at V1 (abnormal, not clinically significant). */
  | 'highGlucose'
  /** Ear canal suction at screening (prior treatment). */
  | 'earSuction'
  /** The PI signs the casebook. */
  | 'signed'
  /** The PI signs, then a value is corrected (the signature is invalidated), and the PI signs again. */
  | 'signedThenChanged';

export interface DemoSubjectPlan {
  site: InstitutionNumber;
  initials: string;
  consentDaysAgo: number;
  sex: 'M' | 'F';
  /** Age in full years at consent. */
  age: number;
  heightCm: number;
  weightKg: number;
  perforationSite: 'L' | 'R' | 'B';
  applicationSite: Side;
  /** Perforation as a percentage of the membrane on the V1 photograph. */
  perforationPercent: number;
  /** Total membrane diameter on the V1 photograph (mm). */
  membraneDiameterMm: number;
  healing: Healing;
  course: DemoCourse;
  history?: HistoryPlan[];
  medication?: MedicationPlan[];
  adverseEvents?: AdverseEventPlan[];
  twists?: Twist[];
}

const hypertension: HistoryPlan = { content: '고혈압', startedDaysBeforeScreening: 2900 };
const diabetes: HistoryPlan = { content: '제2형 당뇨병', startedDaysBeforeScreening: 2100 };
const dyslipidemia: HistoryPlan = { content: '이상지질혈증', startedDaysBeforeScreening: 1500 };
const rhinitis: HistoryPlan = { content: '알레르기 비염', startedDaysBeforeScreening: 3300 };

const amlodipine: MedicationPlan = {
  drugName: 'Amlodipine',
  dose: 5,
  unit: 'mg',
  frequency: 'QD',
  route: 'oral',
  indication: '고혈압',
  startedDaysBeforeScreening: 2800,
};
const losartan: MedicationPlan = {
  drugName: 'Losartan',
  dose: 50,
  unit: 'mg',
  frequency: 'QD',
  route: 'oral',
  indication: '고혈압',
  startedDaysBeforeScreening: 1900,
};
const metformin: MedicationPlan = {
  drugName: 'Metformin',
  dose: 500,
  unit: 'mg',
  frequency: 'BID',
  route: 'oral',
  indication: '제2형 당뇨병',
  startedDaysBeforeScreening: 2000,
};
const atorvastatin: MedicationPlan = {
  drugName: 'Atorvastatin',
  dose: 10,
  unit: 'mg',
  frequency: 'QD',
  route: 'oral',
  indication: '이상지질혈증',
  startedDaysBeforeScreening: 1400,
};
const levocetirizine: MedicationPlan = {
  drugName: 'Levocetirizine',
  dose: 5,
  unit: 'mg',
  frequency: 'QD',
  route: 'oral',
  indication: '알레르기 비염',
  startedDaysBeforeScreening: 400,
};

/** 12 subjects at 01 (HBU-1Y), 11 at 02 (SBH-2Y), 8 at 03 (NRM-3Y, which started recruiting later). */
export const demoSubjectPlans: DemoSubjectPlan[] = [
  {
    site: '01',
    initials: 'KMS',
    consentDaysAgo: 235,
    sex: 'M',
    age: 52,
    heightCm: 171.5,
    weightKg: 74,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 34,
    membraneDiameterMm: 9.2,
    healing: 'complete',
    course: { stage: 'complete' },
    history: [hypertension],
    medication: [amlodipine],
    twists: ['bloodPressureSwapped', 'signed', 'eardrumPhotos'],
  },
  {
    site: '01',
    initials: 'LYJ',
    consentDaysAgo: 228,
    sex: 'F',
    age: 63,
    heightCm: 156,
    weightKg: 58,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 68,
    membraneDiameterMm: 8.8,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'perforationTooLarge' },
    history: [dyslipidemia],
    medication: [atorvastatin],
  },
  {
    site: '02',
    initials: 'PSH',
    consentDaysAgo: 220,
    sex: 'F',
    age: 29,
    heightCm: 162,
    weightKg: 54,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 27,
    membraneDiameterMm: 9,
    healing: 'complete',
    course: { stage: 'complete' },
    adverseEvents: [
      {
        name: '귀 통증',
        visit: 'v3',
        onsetDaysFromVisit: -3,
        durationDays: 6,
        serious: false,
        severity: 'mild',
        causality: 'probable',
        deviceAction: 'none',
        outcome: 'recovered',
        interest: 'pain',
        treatment: {
          drugName: 'Acetaminophen',
          dose: 500,
          unit: 'mg',
          frequency: 'PRN',
          route: 'oral',
          indication: '귀 통증',
        },
      },
    ],
    twists: ['weightCorrected', 'eardrumPhotos'],
  },
  {
    site: '02',
    initials: 'CJW',
    consentDaysAgo: 210,
    sex: 'M',
    age: 44,
    heightCm: 176,
    weightKg: 81,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 41,
    membraneDiameterMm: 9.4,
    healing: 'partial',
    course: {
      stage: 'dropout',
      lastVisit: 'v3',
      reason: '003',
      daysAfterLastVisit: 31,
      detail: 'V4 방문 미내원. 전화 3회, 문자 2회 연락하였으나 닿지 않음.',
    },
  },
  {
    site: '01',
    initials: 'JDH',
    consentDaysAgo: 200,
    sex: 'M',
    age: 67,
    heightCm: 168,
    weightKg: 70,
    perforationSite: 'B',
    applicationSite: 'L',
    perforationPercent: 48,
    membraneDiameterMm: 9.1,
    healing: 'none',
    course: { stage: 'complete' },
    history: [hypertension, diabetes],
    medication: [losartan, metformin],
    adverseEvents: [
      {
        name: '고막 재천공',
        visit: 'v5',
        onsetDaysFromVisit: -4,
        durationDays: null,
        serious: false,
        severity: 'moderate',
        causality: 'possible',
        deviceAction: 'none',
        outcome: 'notRecovered',
        interest: 'reperforation',
      },
    ],
    twists: ['signed', 'highGlucose'],
  },
  {
    site: '02',
    initials: 'YHN',
    consentDaysAgo: 190,
    sex: 'F',
    age: 31,
    heightCm: 160,
    weightKg: 52,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 30,
    membraneDiameterMm: 8.9,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'pregnancy' },
  },
  {
    site: '02',
    initials: 'HMK',
    consentDaysAgo: 182,
    sex: 'F',
    age: 58,
    heightCm: 154,
    weightKg: 61,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 36,
    membraneDiameterMm: 8.7,
    healing: 'partial',
    course: { stage: 'complete' },
    history: [{ content: '골다공증', startedDaysBeforeScreening: 900 }],
    twists: ['oldHistory'],
  },
  {
    site: '01',
    initials: 'SBG',
    consentDaysAgo: 175,
    sex: 'M',
    age: 71,
    heightCm: 165,
    weightKg: 63,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 52,
    membraneDiameterMm: 9.3,
    healing: 'partial',
    course: {
      stage: 'dropout',
      lastVisit: 'v4',
      reason: '002',
      daysAfterLastVisit: 10,
      detail: '급성 중이염(중대한 이상사례)으로 입원 치료 후 대상자 및 시험자 판단으로 참여 중단.',
    },
    history: [hypertension],
    medication: [amlodipine],
    adverseEvents: [
      {
        name: '급성 중이염',
        visit: 'v4',
        onsetDaysFromVisit: -2,
        durationDays: 12,
        serious: true,
        severity: 'severe',
        causality: 'possible',
        deviceAction: 'removed',
        outcome: 'recovered',
        interest: 'otorrhea',
        others: '정맥 항생제 치료를 위해 5일간 입원.',
        treatment: {
          drugName: 'Ceftriaxone',
          dose: 1,
          unit: 'g',
          frequency: 'QD',
          route: 'intravenous',
          indication: '급성 중이염',
        },
      },
    ],
    twists: ['signed'],
  },
  {
    site: '03',
    initials: 'OEJ',
    consentDaysAgo: 165,
    sex: 'F',
    age: 38,
    heightCm: 165,
    weightKg: 57,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 25,
    membraneDiameterMm: 9,
    healing: 'complete',
    course: { stage: 'complete' },
    history: [rhinitis],
    medication: [levocetirizine],
    adverseEvents: [
      {
        name: '이루',
        visit: 'v4',
        onsetDaysFromVisit: -1,
        durationDays: 9,
        serious: false,
        severity: 'moderate',
        causality: 'possible',
        deviceAction: 'none',
        outcome: 'recovered',
        interest: 'otorrhea',
        treatment: {
          drugName: 'Ofloxacin 0.3% otic solution',
          dose: 5,
          unit: 'drops',
          frequency: 'BID',
          route: 'otic',
          indication: '이루',
        },
      },
    ],
  },
  {
    site: '03',
    initials: 'NJH',
    consentDaysAgo: 158,
    sex: 'M',
    age: 24,
    heightCm: 178,
    weightKg: 72,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 33,
    membraneDiameterMm: 9.5,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'tbctFracture' },
  },
  {
    site: '01',
    initials: 'KSY',
    consentDaysAgo: 150,
    sex: 'F',
    age: 46,
    heightCm: 158,
    weightKg: 55,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 29,
    membraneDiameterMm: 8.8,
    healing: 'complete',
    course: { stage: 'complete' },
    twists: ['signedThenChanged'],
  },
  {
    site: '03',
    initials: 'BTH',
    consentDaysAgo: 140,
    sex: 'M',
    age: 19,
    heightCm: 174,
    weightKg: 66,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 22,
    membraneDiameterMm: 9.6,
    healing: 'partial',
    course: {
      stage: 'dropout',
      lastVisit: 'v2',
      reason: '001',
      daysAfterLastVisit: 9,
      detail: '군 입대 일정으로 추적 방문이 어려워 동의 철회.',
    },
  },
  {
    site: '02',
    initials: 'WJS',
    consentDaysAgo: 128,
    sex: 'M',
    age: 61,
    heightCm: 170,
    weightKg: 68,
    perforationSite: 'B',
    applicationSite: 'R',
    perforationPercent: 44,
    membraneDiameterMm: 9.2,
    healing: 'partial',
    course: { stage: 'complete' },
    history: [dyslipidemia],
    medication: [atorvastatin],
    twists: ['birthDateCorrected'],
  },
  {
    site: '01',
    initials: 'CHR',
    consentDaysAgo: 118,
    sex: 'F',
    age: 35,
    heightCm: 163,
    weightKg: 60,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 31,
    membraneDiameterMm: 9,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'consentWithdrawn' },
  },
  {
    site: '01',
    initials: 'LJH',
    consentDaysAgo: 101,
    sex: 'M',
    age: 49,
    heightCm: 173,
    weightKg: 77,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 39,
    membraneDiameterMm: 9.3,
    healing: 'complete',
    course: { stage: 'ongoing', lastVisit: 'v5' },
    twists: ['earSuction'],
  },
  {
    site: '02',
    initials: 'KMJ',
    consentDaysAgo: 95,
    sex: 'F',
    age: 55,
    heightCm: 157,
    weightKg: 63,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 46,
    membraneDiameterMm: 8.9,
    healing: 'partial',
    course: {
      stage: 'dropout',
      lastVisit: 'v3',
      reason: '007',
      daysAfterLastVisit: 8,
      detail: '타 병원에서 류마티스 관절염 악화로 전신 스테로이드(Prednisolone) 투여 시작.',
    },
    medication: [
      {
        drugName: 'Loxoprofen',
        dose: 60,
        unit: 'mg',
        frequency: 'TID',
        route: 'oral',
        indication: '무릎 통증',
        startedDaysBeforeScreening: 60,
        endedDaysBeforeScreening: 40,
      },
    ],
  },
  {
    site: '03',
    initials: 'JSW',
    consentDaysAgo: 90,
    sex: 'M',
    age: 33,
    heightCm: 180,
    weightKg: 79,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 28,
    membraneDiameterMm: 9.6,
    healing: 'complete',
    course: { stage: 'ongoing', lastVisit: 'v5' },
    adverseEvents: [
      {
        name: '급성 충수염',
        visit: 'v5',
        onsetDaysFromVisit: -12,
        durationDays: 8,
        serious: true,
        severity: 'moderate',
        causality: 'notRelated',
        deviceAction: 'none',
        outcome: 'recovered',
        others: '응급 충수절제술 후 4일간 입원.',
        treatment: {
          drugName: 'Cefoxitin',
          dose: 2,
          unit: 'g',
          frequency: 'Q8H',
          route: 'intravenous',
          indication: '급성 충수염 수술 전후 예방',
        },
      },
    ],
  },
  {
    site: '03',
    initials: 'GOS',
    consentDaysAgo: 87,
    sex: 'F',
    age: 74,
    heightCm: 150,
    weightKg: 52,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 55,
    membraneDiameterMm: 8.6,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v4' },
    history: [hypertension],
    medication: [amlodipine],
    twists: ['oldCt'],
  },
  {
    site: '02',
    initials: 'KDY',
    consentDaysAgo: 83,
    sex: 'M',
    age: 66,
    heightCm: 166,
    weightKg: 69,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 50,
    membraneDiameterMm: 9.2,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v4' },
    history: [diabetes],
    medication: [metformin],
    twists: ['oldLabs', 'highGlucose'],
  },
  {
    site: '01',
    initials: 'SEB',
    consentDaysAgo: 70,
    sex: 'F',
    age: 22,
    heightCm: 161,
    weightKg: 50,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 24,
    membraneDiameterMm: 9,
    healing: 'complete',
    course: { stage: 'ongoing', lastVisit: 'v4' },
    adverseEvents: [
      {
        name: '두통',
        visit: 'v3',
        onsetDaysFromVisit: -2,
        durationDays: 2,
        serious: false,
        severity: 'mild',
        causality: 'unlikely',
        deviceAction: 'none',
        outcome: 'recovered',
      },
    ],
    twists: ['lateV3'],
  },
  {
    site: '01',
    initials: 'AJM',
    consentDaysAgo: 55,
    sex: 'M',
    age: 37,
    heightCm: 175,
    weightKg: 83,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 43,
    membraneDiameterMm: 9.4,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v3' },
    twists: ['deviceNextDay'],
  },
  {
    site: '02',
    initials: 'MYC',
    consentDaysAgo: 50,
    sex: 'M',
    age: 57,
    heightCm: 169,
    weightKg: 73,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 37,
    membraneDiameterMm: 9.1,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'otorrheaAtBaseline' },
  },
  {
    site: '03',
    initials: 'RHJ',
    consentDaysAgo: 45,
    sex: 'F',
    age: 42,
    heightCm: 159,
    weightKg: 56,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 35,
    membraneDiameterMm: 8.8,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v3' },
    twists: ['skinFinding'],
  },
  {
    site: '03',
    initials: 'PGY',
    consentDaysAgo: 30,
    sex: 'F',
    age: 53,
    heightCm: 155,
    weightKg: 59,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 26,
    membraneDiameterMm: 8.7,
    healing: 'none',
    course: { stage: 'screeningFailure', cause: 'lidocaineAllergy' },
  },
  {
    site: '02',
    initials: 'CSA',
    consentDaysAgo: 25,
    sex: 'F',
    age: 16,
    heightCm: 158,
    weightKg: 48,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 32,
    membraneDiameterMm: 9,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v2' },
    twists: ['baselineBoneNotDone'],
  },
  {
    site: '02',
    initials: 'IBS',
    consentDaysAgo: 20,
    sex: 'M',
    age: 78,
    heightCm: 163,
    weightKg: 60,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 47,
    membraneDiameterMm: 9.2,
    healing: 'none',
    course: { stage: 'screening', v1Forms: 15 },
    history: [hypertension],
    medication: [amlodipine],
  },
  {
    site: '01',
    initials: 'HYR',
    consentDaysAgo: 17,
    sex: 'F',
    age: 27,
    heightCm: 166,
    weightKg: 58,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 21,
    membraneDiameterMm: 9.1,
    healing: 'partial',
    course: { stage: 'ongoing', lastVisit: 'v2' },
  },
  {
    site: '01',
    initials: 'YTK',
    consentDaysAgo: 15,
    sex: 'M',
    age: 50,
    heightCm: 172,
    weightKg: 70,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 38,
    membraneDiameterMm: 9.3,
    healing: 'none',
    course: { stage: 'screening', v1Forms: 15 },
    twists: ['screeningDischarge'],
  },
  {
    site: '03',
    initials: 'SMH',
    consentDaysAgo: 8,
    sex: 'M',
    age: 17,
    heightCm: 172,
    weightKg: 61,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 45,
    membraneDiameterMm: 9.5,
    healing: 'none',
    course: { stage: 'screening', v1Forms: 11 },
  },
  {
    site: '01',
    initials: 'KOS',
    consentDaysAgo: 3,
    sex: 'F',
    age: 69,
    heightCm: 152,
    weightKg: 57,
    perforationSite: 'R',
    applicationSite: 'R',
    perforationPercent: 58,
    membraneDiameterMm: 8.6,
    healing: 'none',
    course: { stage: 'screening', v1Forms: 5 },
  },
  {
    site: '02',
    initials: 'LBK',
    consentDaysAgo: 0,
    sex: 'M',
    age: 80,
    heightCm: 167,
    weightKg: 62,
    perforationSite: 'L',
    applicationSite: 'L',
    perforationPercent: 40,
    membraneDiameterMm: 9.1,
    healing: 'none',
    course: { stage: 'registered' },
  },
];
