import { addDays, exclusionCriteria, type FormValues, inclusionCriteria, yearsBetween } from '@cdms/study';
import { mulberry32 } from '../randomization/permuted-blocks.ts';
import type { DemoEardrum } from './demo-eardrum-photo.ts';
import type {
  AdverseEventPlan,
  DemoSubjectPlan,
  FollowUpVisit,
  HistoryPlan,
  MedicationPlan,
  ScreeningFailureCause,
} from './demo-subject-plans.ts';

// Turns a demo subject's plan into what a site would do for them, day by day: register at consent,
// enter each visit's forms on the visit day, randomize at V2, correct mistakes later with a reason, the
// PI signing at the end. Pure: the same plan and day always give the same steps (values that vary come
// from a PRNG seeded by the subject), so the demo is the same on every first start of the same day.

export type DemoAction =
  | { kind: 'register'; consentDate: string; initials: string }
  | {
      kind: 'save';
      visitKey: string;
      formKey: string;
      /** The form's complete values as saved (what is absent is cleared). */
      values: FormValues;
      /** Reason per changed item key, for a change to saved values. */
      reasons?: Record<string, string>;
      /** Entered by the investigator (eligibility, end of study) rather than the coordinator. */
      byInvestigator?: boolean;
      /** The eardrum photo uploaded first and traced (tympanicPhoto, issue 19): `photo` and `tracing` join the values. */
      photo?: DemoEardrum;
    }
  | { kind: 'randomize' }
  | { kind: 'sign' };

export interface DemoStep {
  /** The day it happens (never after `today`). */
  date: string;
  action: DemoAction;
}

// V1's forms in the order a site enters them (the definition's), spelled out as a closed type: `v1Form`
// gives each its values in a switch tsc checks is complete. demo-seed.test.ts holds it to the definition.
const V1_FORMS = [
  'visitDay',
  'demographicInfo',
  'diseaseBasicInfo',
  'bodyMeasurement',
  'physicalExam',
  'medicalHistory',
  'vitalSigns',
  'labTest',
  'pregnancyTest',
  'otoscopyEndoscopy',
  'tympanicPhoto',
  'tbctImaging',
  'impedanceAudiometry',
  'ptaTest',
  'inclusionExclusionEval',
] as const;
const V1_FORM_COUNT = V1_FORMS.length;

type Visit = 'v1' | 'v2' | 'v3' | 'v4' | 'v5' | 'v6';
const FOLLOW_UP_ORDER: Visit[] = ['v2', 'v3', 'v4', 'v5', 'v6'];

/** Middle of each follow-up window, days after V2 (the definition's visit windows), and how far the demo strays inside it. */
const FOLLOW_UP_TARGET: Record<'v3' | 'v4' | 'v5' | 'v6', { offset: number; spread: number }> = {
  v3: { offset: 14, spread: 2 },
  v4: { offset: 28, spread: 3 },
  v5: { offset: 56, spread: 3 },
  v6: { offset: 84, spread: 3 },
};
/** V2 is two weeks after screening (the V1 window is V2 − 14 days). */
const SCREENING_TO_BASELINE_DAYS = 14;
/** The out-of-window V3 of the `lateV3` twist: its window is ±3 days. */
const LATE_V3_OFFSET = 20;

/** Share of the V2 perforation diameter left at each visit, per healing course. */
const REMAINING_PERFORATION: Record<DemoSubjectPlan['healing'], Record<Visit, number>> = {
  complete: { v1: 1, v2: 1, v3: 0.8, v4: 0.5, v5: 0.2, v6: 0 },
  partial: { v1: 1, v2: 1, v3: 0.9, v4: 0.75, v5: 0.6, v6: 0.45 },
  none: { v1: 1, v2: 1, v3: 0.95, v4: 0.9, v5: 0.95, v6: 1 },
};

/**
 * The row the `vitalSignsCopied` twist enters at V3 for each subject that has it: copied from one
 * chart into another, so two subjects carry the same five values (central monitoring's duplicate).
 */
const COPIED_VITAL_SIGNS: FormValues = {
  bloodPressureSystolic: 118,
  bloodPressureDiastolic: 76,
  heartRate: 72,
  bodyTemperature: 36.6,
  result: 'normal',
};

/** A small deterministic PRNG (mulberry32): the demo's varying values are the same on every run. */
export function seededRandom(seedText: string): () => number {
  let state = 0;
  for (const char of seedText) state = (Math.imul(state, 31) + char.charCodeAt(0)) >>> 0;
  return mulberry32(state);
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

function day(date: string, days: number): string {
  const result = addDays(date, days);
  if (result === null) throw new Error(`bad demo date ${date} + ${days}`);
  return result;
}

/** A birth date that makes the subject exactly `age` full years old on the consent date. */
export function birthDateFor(consentDate: string, age: number, daysBeforeBirthday: number): string {
  const [year, monthDay] = [Number(consentDate.slice(0, 4)), consentDate.slice(5)];
  const anniversary = `${String(year - age).padStart(4, '0')}-${monthDay === '02-29' ? '02-28' : monthDay}`;
  const birthDate = day(anniversary, -daysBeforeBirthday);
  if (yearsBetween(birthDate, consentDate) !== age)
    throw new Error(`demo birth date ${birthDate} is not ${age}`);
  return birthDate;
}

/** Builds the steps of one subject. `today` is the Korean day the seed runs. */
export function demoCasebookSteps(plan: DemoSubjectPlan, today: string): DemoStep[] {
  return new CasebookBuilder(plan, today).build();
}

class CasebookBuilder {
  private readonly steps: DemoStep[] = [];
  private readonly random: () => number;
  private readonly consentDate: string;
  private readonly screeningDate: string;
  private readonly visitDates = new Map<Visit, string>();
  private readonly perforationMm: number;
  private readonly saved = new Map<string, FormValues>();
  private readonly plan: DemoSubjectPlan;
  private readonly today: string;

  constructor(plan: DemoSubjectPlan, today: string) {
    this.plan = plan;
    this.today = today;
    this.random = seededRandom(`${plan.site}-${plan.initials}`);
    this.consentDate = day(today, -plan.consentDaysAgo);
    // Randomized subjects come for screening the day after consent (so their schedule is exactly as
    // planned); the others anywhere from the same day to two days later.
    const reachesBaseline = ['ongoing', 'complete', 'dropout'].includes(plan.course.stage);
    const screeningDelay = reachesBaseline ? 1 : Math.min(this.integer(0, 2), plan.consentDaysAgo);
    this.screeningDate = day(this.consentDate, screeningDelay);
    this.visitDates.set('v1', this.screeningDate);
    const baseline = day(this.screeningDate, SCREENING_TO_BASELINE_DAYS);
    this.visitDates.set('v2', baseline);
    for (const visit of ['v3', 'v4', 'v5', 'v6'] as const) {
      const target = FOLLOW_UP_TARGET[visit];
      const offset =
        visit === 'v3' && this.has('lateV3')
          ? LATE_V3_OFFSET
          : target.offset + this.integer(-target.spread, target.spread);
      this.visitDates.set(visit, day(baseline, offset));
    }
    this.perforationMm = round((plan.membraneDiameterMm * plan.perforationPercent) / 100, 1);
  }

  build(): DemoStep[] {
    const { plan } = this;
    this.add(this.consentDate, { kind: 'register', consentDate: this.consentDate, initials: plan.initials });
    const course = plan.course;
    switch (course.stage) {
      case 'registered':
        break;
      case 'screening':
        this.screening(course.v1Forms);
        break;
      case 'screeningFailure':
        this.screeningFailure(course.cause);
        break;
      case 'ongoing':
        this.screening(V1_FORM_COUNT);
        this.followUp(course.lastVisit);
        break;
      case 'complete':
        this.screening(V1_FORM_COUNT);
        this.followUp('v6');
        this.save(
          this.date('v6'),
          'all',
          'endExamination',
          {
            completed: 'Y',
            observationEndDate: this.date('v6'),
          },
          { byInvestigator: true },
        );
        break;
      case 'dropout': {
        this.screening(V1_FORM_COUNT);
        this.followUp(course.lastVisit);
        const dropoutDate = day(this.date(course.lastVisit), course.daysAfterLastVisit);
        if (course.reason === '007') this.prohibitedSteroid(dropoutDate);
        this.save(
          dropoutDate,
          'all',
          'endExamination',
          {
            completed: 'N',
            dropoutDate,
            dropoutReason: course.reason,
            dropoutDetail: course.detail,
          },
          { byInvestigator: true },
        );
        break;
      }
    }
    this.signature();
    const future = this.steps.find((step) => step.date > this.today);
    if (future) throw new Error(`demo subject ${plan.initials} has a step on ${future.date}, after today`);
    return this.steps;
  }

  // ---- the course ----

  private screening(formCount: number, overrides: Partial<Record<string, FormValues>> = {}): void {
    const date = this.screeningDate;
    for (const formKey of V1_FORMS.slice(0, formCount)) {
      const values = overrides[formKey] ?? this.v1Form(formKey);
      this.save(date, 'v1', formKey, values, { byInvestigator: formKey === 'inclusionExclusionEval' });
      if (formKey === 'medicalHistory') {
        // Prior medication and treatment are asked with the medical history.
        this.save(date, 'all', 'concomitantDrugs', this.concomitantDrugs());
        this.save(date, 'all', 'treatmentInvestigation', this.treatmentInvestigation());
      }
    }
    this.corrections();
  }

  private screeningFailure(cause: ScreeningFailureCause): void {
    const date = this.screeningDate;
    // Screening stops where the failure shows: the forms up to `formKey` are entered (tests not
    // done are not), then the investigator's "not eligible".
    const upToThenNotEligible = (
      formKey: (typeof V1_FORMS)[number],
      criterion: string,
      value: 'Y' | 'N',
      overrides: Partial<Record<string, FormValues>> = {},
    ) => {
      this.screening(V1_FORMS.indexOf(formKey) + 1, overrides);
      this.save(date, 'v1', 'inclusionExclusionEval', this.eligibility('N', { [criterion]: value }), {
        byInvestigator: true,
      });
    };
    const endOfStudy = (reason: string, detail: string, on = date) =>
      this.save(
        on,
        'all',
        'endExamination',
        {
          completed: 'SF',
          screeningFailureReason: reason,
          screeningFailureDetail: detail,
        },
        { byInvestigator: true },
      );
    switch (cause) {
      case 'perforationTooLarge':
        upToThenNotEligible('ptaTest', 'inc03', 'N');
        endOfStudy('inclusionNotMet', '고막 사진상 천공 비율 68%로 선정기준(20~60%) 미충족.');
        break;
      case 'lidocaineAllergy':
        // Known from the history interview: no screening tests are done.
        upToThenNotEligible('medicalHistory', 'exc03', 'Y');
        endOfStudy('exclusionMet', '리도카인 알레르기 병력 확인(치과 시술 시 두드러기).');
        break;
      case 'pregnancy':
        // No CT and no further tests once the pregnancy test is positive.
        upToThenNotEligible('pregnancyTest', 'exc06', 'Y', {
          pregnancyTest: { childbearingPotential: 'Y', testMethod: 'serumHcg', result: 'positive' },
        });
        endOfStudy('exclusionMet', '스크리닝 혈청 HCG 양성.');
        break;
      case 'tbctFracture':
        upToThenNotEligible('ptaTest', 'exc09', 'Y', {
          tbctImaging: { imagingDate: date, fractureOrDamage: 'Y' },
        });
        endOfStudy('exclusionMet', '측두골 CT에서 이소골 연쇄 손상 확인.');
        break;
      case 'consentWithdrawn':
        this.screening(8);
        endOfStudy('consentWithdrawn', '개인 사정(해외 장기 출장)으로 스크리닝 중 동의 철회.', day(date, 3));
        break;
      case 'otorrheaAtBaseline': {
        this.screening(V1_FORM_COUNT);
        const baseline = this.date('v2');
        this.save(baseline, 'v2', 'visitDay', this.visitDay(baseline));
        this.save(baseline, 'v2', 'physicalExam', { result: 'normal' });
        this.save(baseline, 'v2', 'vitalSigns', this.vitalSigns());
        this.save(baseline, 'v2', 'otoscopyEndoscopy', {
          perforation: 'Y',
          perforationSize: this.perforationMm,
          otorrhea: 'Y',
        });
        this.save(baseline, 'v2', 'tympanicPhoto', { perforationDiameter: this.perforationMm });
        this.save(baseline, 'v2', 'ptaTest', this.pta(false));
        this.save(baseline, 'v2', 'inclusionExclusionEval', this.eligibility('N', { exc01: 'Y' }), {
          byInvestigator: true,
        });
        endOfStudy('exclusionMet', '기저 방문(V2) 이경 검사에서 이루 확인.', baseline);
        break;
      }
    }
  }

  /** V2 (randomization, device) and the follow-up visits up to `lastVisit`. */
  private followUp(lastVisit: FollowUpVisit | 'v6'): void {
    const visits = FOLLOW_UP_ORDER.slice(0, FOLLOW_UP_ORDER.indexOf(lastVisit) + 1);
    for (const visit of visits) {
      const date = this.date(visit);
      this.save(date, visit, 'visitDay', visit === 'v6' ? { ...this.visitDay(date) } : this.visitDay(date));
      this.save(date, visit, 'physicalExam', { result: 'normal' });
      this.save(date, visit, 'vitalSigns', this.vitalSigns(visit));
      if (visit === 'v6') {
        this.save(date, visit, 'labTest', this.labTest(date));
        this.save(date, visit, 'pregnancyTest', this.pregnancyTest());
      }
      this.save(date, visit, 'otoscopyEndoscopy', this.otoscopy(visit));
      this.save(date, visit, 'tympanicPhoto', this.tympanicPhoto(visit));
      if (visit === 'v2') {
        this.save(date, visit, 'ptaTest', this.pta(this.has('baselineBoneNotDone')));
        this.save(date, visit, 'inclusionExclusionEval', this.eligibility('Y'), { byInvestigator: true });
        this.add(date, { kind: 'randomize' });
        const applicationDate = this.has('deviceNextDay') ? day(date, 1) : date;
        this.save(applicationDate, visit, 'deviceApplication', {
          applied: 'Y',
          site: this.plan.applicationSite,
          applicationDate,
          applicationTime: this.time(9, 16),
        });
        this.save(date, 'all', 'adverseEvent', { hasAdverseEvent: 'N' });
      } else {
        this.save(date, visit, 'impedanceAudiometry', this.impedance(date, visit));
      }
      this.save(date, visit, 'interestAdverseEvent', this.interest(date, visit));
      for (const event of this.plan.adverseEvents ?? []) {
        if (event.visit === visit) this.adverseEvent(event);
      }
    }
  }

  // ---- forms of V1 ----

  private v1Form(formKey: (typeof V1_FORMS)[number]): FormValues {
    const date = this.screeningDate;
    const { plan } = this;
    switch (formKey) {
      case 'visitDay':
        return this.visitDay(date);
      case 'demographicInfo':
        return {
          birthDate: this.birthDate(this.has('birthDateCorrected') ? 1 : 0),
          gender: plan.sex,
        };
      case 'diseaseBasicInfo':
        return this.diseaseInfo();
      case 'bodyMeasurement':
        return {
          measurementDate: date,
          height: plan.heightCm,
          weight: this.has('weightCorrected') ? plan.weightKg + 10 : plan.weightKg,
        };
      case 'physicalExam':
        return this.has('skinFinding')
          ? {
              result: 'abnormal',
              examinations: [
                {
                  bodyOrgan: '피부',
                  content: '좌측 전완부 경미한 습진',
                  diagnosis: 'NCS',
                  note: '보습제 사용 중, 임상시험 참여에 영향 없음',
                },
              ],
            }
          : { result: 'normal' };
      case 'medicalHistory':
        return this.medicalHistory();
      case 'vitalSigns': {
        const vitals = this.vitalSigns();
        if (!this.has('bloodPressureSwapped')) return vitals;
        return {
          ...vitals,
          bloodPressureSystolic: vitals.bloodPressureDiastolic ?? null,
          bloodPressureDiastolic: vitals.bloodPressureSystolic ?? null,
        };
      }
      case 'labTest': {
        // Blood results from up to 3 days before screening stand in (spec §5); urine never does, so the
        // sites record the urine taken on the screening day with its own date.
        const specimenDate = this.has('oldLabs') ? day(date, -18) : day(date, -this.integer(0, 3));
        const labs = this.labTest(specimenDate);
        return specimenDate === date ? labs : { ...labs, urineSpecimenDate: date };
      }
      case 'pregnancyTest':
        return this.pregnancyTest();
      case 'otoscopyEndoscopy':
        return this.otoscopy('v1');
      case 'tympanicPhoto':
        return { totalDiameter: plan.membraneDiameterMm, perforationDiameter: this.perforationMm };
      case 'tbctImaging':
        return {
          imagingDate: this.has('oldCt') ? day(date, -400) : day(date, -this.integer(0, 45)),
          fractureOrDamage: 'N',
        };
      case 'impedanceAudiometry':
        return this.impedance(date, 'v1');
      case 'ptaTest':
        return this.pta(false);
      case 'inclusionExclusionEval':
        return this.eligibility('Y');
    }
  }

  private birthDate(yearsOff: number): string {
    const daysBeforeBirthday = 1 + Math.floor(this.seedFor('birth') * 330);
    return birthDateFor(this.consentDate, this.plan.age + yearsOff, daysBeforeBirthday);
  }

  private diseaseInfo(): FormValues {
    const discharge = this.has('screeningDischarge');
    return {
      perforationSite: this.plan.perforationSite,
      applicationSite: this.plan.applicationSite,
      pain: this.pick(['none', 'none', 'mild']),
      tinnitus: this.pick(['none', 'mild', 'mild', 'moderate']),
      dizziness: this.pick(['none', 'none', 'none', 'mild']),
      earDischarge: discharge ? 'Y' : 'N',
      ...(discharge
        ? {
            dischargeColor: 'transparent',
            dischargeSmell: 'odorless',
            dischargeMucus: 'N',
            dischargeLump: 'N',
            dischargeFindings: '소량의 장액성 분비물, 감염 소견 없음',
          }
        : {}),
    };
  }

  private medicalHistory(): FormValues {
    const histories: HistoryPlan[] = [...(this.plan.history ?? [])];
    if (this.has('oldHistory'))
      histories.push({
        content: '급성 기관지염',
        startedDaysBeforeScreening: 115,
        endedDaysBeforeScreening: 100,
      });
    if (histories.length === 0) return { none: true };
    return {
      histories: histories.map((history) => ({
        content: history.content,
        startDate: day(this.screeningDate, -history.startedDaysBeforeScreening),
        ...(history.endedDaysBeforeScreening === undefined
          ? { ongoing: true }
          : { endDate: day(this.screeningDate, -history.endedDaysBeforeScreening) }),
      })),
    };
  }

  private concomitantDrugs(): FormValues {
    const drugs = (this.plan.medication ?? []).map((medication) => this.drugRow(medication));
    return drugs.length === 0 ? { hasConcomitantDrugs: 'N' } : { hasConcomitantDrugs: 'Y', drugs };
  }

  private drugRow(medication: MedicationPlan): FormValues {
    return {
      drugName: medication.drugName,
      dose: medication.dose,
      unit: medication.unit,
      frequency: medication.frequency,
      route: medication.route,
      startDate: day(this.screeningDate, -medication.startedDaysBeforeScreening),
      ...(medication.endedDaysBeforeScreening === undefined
        ? { ongoing: true }
        : { endDate: day(this.screeningDate, -medication.endedDaysBeforeScreening) }),
      indication: medication.indication,
    };
  }

  private treatmentInvestigation(): FormValues {
    if (!this.has('earSuction')) return { hasTreatment: 'N' };
    const date = day(this.screeningDate, -12);
    return {
      hasTreatment: 'Y',
      treatments: [
        {
          treatmentName: '외이도 분비물 흡인(suction)',
          site: this.plan.applicationSite === 'L' ? '좌측 외이도' : '우측 외이도',
          startDate: date,
          endDate: date,
          indication: '외이도 분비물 제거',
        },
      ],
    };
  }

  private eligibility(eligible: 'Y' | 'N', overrides: Record<string, 'Y' | 'N'> = {}): FormValues {
    const values: FormValues = { eligible };
    for (const criterion of inclusionCriteria) values[criterion.key] = 'Y';
    for (const criterion of exclusionCriteria) values[criterion.key] = 'N';
    return { ...values, ...overrides };
  }

  // ---- forms of every visit ----

  /** The visit date; a past date carries the reason it is entered after the day (spec §5 warning). */
  private visitDay(date: string): FormValues {
    if (date >= this.today) return { visitDate: date };
    const reason = this.pick(['001', '001', '001', '002', '099']);
    return reason === '099'
      ? { visitDate: date, queryRadio: '099', queryInput: '외래 진료 일정으로 방문 당일 입력하지 못함' }
      : { visitDate: date, queryRadio: reason };
  }

  private vitalSigns(visit?: Visit): FormValues {
    const hypertensive = (this.plan.history ?? []).some((history) => history.content === '고혈압');
    const measuredSystolic = hypertensive ? this.integer(126, 142) : this.integer(106, 132);
    const measuredDiastolic = this.integer(64, Math.min(88, measuredSystolic - 30));
    if (visit === 'v3' && this.has('vitalSignsCopied')) return { ...COPIED_VITAL_SIGNS };
    const toFive = (value: number) =>
      this.has('bloodPressureRoundedToFive') ? Math.round(value / 5) * 5 : value;
    const systolic = toFive(measuredSystolic);
    const diastolic = toFive(measuredDiastolic);
    const elevated = systolic >= 140;
    return {
      bloodPressureSystolic: systolic,
      bloodPressureDiastolic: diastolic,
      heartRate: this.integer(58, 90),
      bodyTemperature: round(36.2 + this.random() * 0.8, 1),
      result: elevated ? 'abnormalNcs' : 'normal',
      ...(elevated ? { opinion: '경도 수축기 혈압 상승, 복용 중인 항고혈압제로 관리 중' } : {}),
    };
  }

  private labTest(specimenDate: string): FormValues {
    const male = this.plan.sex === 'M';
    const results: Record<string, number | string> = {
      wbc: round(4.5 + this.random() * 4, 1),
      rbc: round((male ? 4.5 : 4.0) + this.random() * 0.8, 2),
      hemoglobin: round((male ? 13.8 : 12.2) + this.random() * 2, 1),
      hematocrit: round((male ? 41 : 37) + this.random() * 6, 1),
      platelet: this.integer(170, 350),
      bun: this.integer(9, 20),
      creatinine: round((male ? 0.8 : 0.6) + this.random() * 0.3, 2),
      ast: this.integer(16, 34),
      alt: this.integer(12, 35),
      albumin: round(3.9 + this.random() * 0.9, 1),
      totalProtein: round(6.6 + this.random() * 1.2, 1),
      totalBilirubin: round(0.4 + this.random() * 0.7, 1),
      glucose: this.integer(78, 105),
      cholesterol: this.integer(150, 215),
      egfr: this.integer(this.plan.age >= 65 ? 68 : 85, this.plan.age >= 65 ? 90 : 118),
      pt: round(10.8 + this.random() * 1.8, 1),
      aptt: round(27 + this.random() * 8, 1),
      urineRbc: 'negative',
      urineAlbumin: 'negative',
      urineGlucose: 'negative',
      urinePh: this.pick([5.5, 6, 6, 6.5, 7]),
      urineWbc: 'negative',
    };
    const values: FormValues = { specimenDate };
    for (const [key, result] of Object.entries(results)) {
      values[`${key}Result`] = result;
      values[`${key}Normal`] = 'normal';
    }
    if (this.has('highGlucose')) {
      values.glucoseResult = this.integer(128, 146);
      values.glucoseNormal = 'abnormal';
      values.glucoseSignificance = 'NCS';
      values.glucoseOpinion = '당뇨병 치료 중, 공복 아님';
    }
    return values;
  }

  private pregnancyTest(): FormValues {
    const childbearing = this.plan.sex === 'F' && this.plan.age < 50;
    return childbearing
      ? { childbearingPotential: 'Y', testMethod: 'urineHcg', result: 'negative' }
      : { childbearingPotential: 'N' };
  }

  private remainingPerforation(visit: Visit): number {
    return round(this.perforationMm * REMAINING_PERFORATION[this.plan.healing][visit], 1);
  }

  private otoscopy(visit: Visit): FormValues {
    const diameter = this.remainingPerforation(visit);
    const otorrhea = this.interestOn(visit, 'otorrhea') ? 'Y' : 'N';
    return diameter > 0
      ? { perforation: 'Y', perforationSize: diameter, otorrhea }
      : { perforation: 'N', otorrhea };
  }

  private tympanicPhoto(visit: Visit): FormValues {
    const diameter = this.remainingPerforation(visit);
    if (visit === 'v2' || visit === 'v3') return { perforationDiameter: diameter };
    const healed = diameter === 0;
    const smaller = diameter < this.perforationMm;
    return {
      perforationDiameter: diameter,
      regeneration: smaller ? 'Y' : 'N',
      evaluation: healed ? 'completeHealing' : smaller ? 'partialHealing' : 'failToHeal',
      ...(this.interestOn(visit, 'reperforation') ? { opinion: '천공 가장자리 재천공 소견' } : {}),
    };
  }

  private impedance(date: string, visit: Visit): FormValues {
    const healed = this.remainingPerforation(visit) === 0;
    return { examDate: date, result: healed ? this.pick(['A', 'A', 'As']) : 'B' };
  }

  private pta(boneNotDone: boolean): FormValues {
    const base = this.integer(24, 46);
    const air = [500, 1000, 2000, 4000].map((_, index) => base + index * this.integer(1, 6));
    const values: FormValues = {
      air500: air[0] ?? base,
      air1000: air[1] ?? base,
      air2000: air[2] ?? base,
      air4000: air[3] ?? base,
    };
    if (boneNotDone) return { ...values, boneNd: true };
    const bone = this.integer(5, 18);
    return {
      ...values,
      bone500: bone,
      bone1000: bone + this.integer(0, 5),
      bone2000: bone + this.integer(0, 8),
      bone4000: bone + this.integer(3, 12),
    };
  }

  private interestOn(visit: Visit, kind: NonNullable<AdverseEventPlan['interest']>): boolean {
    return (this.plan.adverseEvents ?? []).some((event) => event.visit === visit && event.interest === kind);
  }

  private interest(date: string, visit: Visit): FormValues {
    const yesNo = (kind: NonNullable<AdverseEventPlan['interest']>) =>
      this.interestOn(visit, kind) ? 'Y' : 'N';
    return {
      collectionDate: date,
      pain: yesNo('pain'),
      otorrhea: yesNo('otorrhea'),
      reperforation: yesNo('reperforation'),
    };
  }

  // ---- adverse events, changes, signature ----

  /**
   * An adverse event as a site reports it: a serious one the day after onset (still ongoing), another at
   * the visit where it is known; an event that resolves later is updated then, with a reason.
   */
  private adverseEvent(event: AdverseEventPlan): void {
    const visitDate = this.date(event.visit);
    const onset = day(visitDate, event.onsetDaysFromVisit);
    const reported = event.serious ? day(onset, 1) : visitDate;
    const ended = event.durationDays === null ? null : day(onset, event.durationDays);
    const endedByReport = ended !== null && ended <= reported;
    const row = (resolved: boolean): FormValues => ({
      name: event.name,
      startDate: onset,
      ...(resolved && ended ? { endDate: ended } : {}),
      serious: event.serious ? 'Y' : 'N',
      severity: event.severity,
      causality: event.causality,
      deviceAction: event.deviceAction,
      treatment: event.treatment ? 'Y' : 'N',
      outcome: resolved || ended === null ? event.outcome : 'recovering',
      ...(event.others ? { others: event.others } : {}),
    });
    const previous = (this.saved.get('all.adverseEvent')?.events as FormValues[] | undefined) ?? [];
    const firstReport = previous.length === 0;
    this.save(
      reported,
      'all',
      'adverseEvent',
      { hasAdverseEvent: 'Y', events: [...previous, row(endedByReport)] },
      {
        reasons: firstReport
          ? { hasAdverseEvent: '방문 시 이상사례 발생 확인' }
          : { events: '추가 이상사례 발생 확인' },
      },
    );
    if (event.treatment)
      this.addMedication(reported, onset, ended && endedByReport ? ended : null, event.treatment);
    if (ended !== null && !endedByReport && ended <= this.today) {
      const update = ended < this.today ? day(ended, 1) : ended;
      const events = [...previous, row(true)];
      this.save(
        update,
        'all',
        'adverseEvent',
        { hasAdverseEvent: 'Y', events },
        {
          reasons: { events: '이상사례 종료 및 결과 확인' },
        },
      );
      if (event.treatment) this.endMedication(update, event.treatment.drugName, ended);
    }
  }

  private addMedication(
    date: string,
    start: string,
    end: string | null,
    medication: NonNullable<AdverseEventPlan['treatment']>,
  ): void {
    const before = this.saved.get('all.concomitantDrugs');
    const drugs = (before?.drugs as FormValues[] | undefined) ?? [];
    const row: FormValues = {
      drugName: medication.drugName,
      dose: medication.dose,
      unit: medication.unit,
      frequency: medication.frequency,
      route: medication.route,
      startDate: start,
      ...(end ? { endDate: end } : { ongoing: true }),
      indication: medication.indication,
    };
    const reasons: Record<string, string> = { drugs: '이상사례 치료 약물 추가' };
    if (before?.hasConcomitantDrugs === 'N') reasons.hasConcomitantDrugs = '이상사례 치료 약물 투여';
    this.save(
      date,
      'all',
      'concomitantDrugs',
      { hasConcomitantDrugs: 'Y', drugs: [...drugs, row] },
      {
        reasons,
      },
    );
  }

  private endMedication(date: string, drugName: string, end: string): void {
    const before = this.saved.get('all.concomitantDrugs') ?? {};
    const drugs = ((before.drugs as FormValues[] | undefined) ?? []).map((row) =>
      row.drugName === drugName ? { ...row, ongoing: false, endDate: end } : row,
    );
    this.save(
      date,
      'all',
      'concomitantDrugs',
      { ...before, drugs },
      {
        reasons: { drugs: '투여 종료일 입력' },
      },
    );
  }

  /** The prohibited systemic steroid that ends a subject's participation (dropout reason 007). */
  private prohibitedSteroid(dropoutDate: string): void {
    const start = day(dropoutDate, -4);
    const before = this.saved.get('all.concomitantDrugs');
    const drugs = (before?.drugs as FormValues[] | undefined) ?? [];
    const reasons: Record<string, string> = { drugs: '타 병원 처방 약물 확인' };
    if (before?.hasConcomitantDrugs === 'N') reasons.hasConcomitantDrugs = '타 병원 처방 약물 확인';
    this.save(
      dropoutDate,
      'all',
      'concomitantDrugs',
      {
        hasConcomitantDrugs: 'Y',
        drugs: [
          ...drugs,
          {
            drugName: 'Prednisolone',
            dose: 20,
            unit: 'mg',
            frequency: 'QD',
            route: 'oral',
            startDate: start,
            ongoing: true,
            indication: '류마티스 관절염 악화',
          },
        ],
      },
      { reasons },
    );
  }

  /** Mistakes found later (source data verification, the next visit) and corrected with a reason. */
  private corrections(): void {
    if (this.has('bloodPressureSwapped')) {
      const date = day(this.screeningDate, 1);
      this.save(date, 'v1', 'vitalSigns', this.vitalSignsAsMeasured(), {
        reasons: {
          bloodPressureSystolic: '수축기/이완기 혈압을 바꾸어 입력함. 원자료 확인 후 정정',
          bloodPressureDiastolic: '수축기/이완기 혈압을 바꾸어 입력함. 원자료 확인 후 정정',
        },
      });
    }
    if (this.has('weightCorrected')) {
      const before = this.saved.get('v1.bodyMeasurement') ?? {};
      this.save(
        this.date('v2'),
        'v1',
        'bodyMeasurement',
        { ...before, weight: this.plan.weightKg },
        {
          reasons: { weight: '원자료(간호기록지) 확인 결과 체중 입력 오류 정정' },
        },
      );
    }
    if (this.has('birthDateCorrected')) {
      const before = this.saved.get('v1.demographicInfo') ?? {};
      this.save(
        this.date('v2'),
        'v1',
        'demographicInfo',
        { ...before, birthDate: this.birthDate(0) },
        {
          reasons: { birthDate: '신분증 확인 결과 출생 연도 오기 정정' },
        },
      );
    }
  }

  /** The V1 vital signs as measured (the swapped entry put right). */
  private vitalSignsAsMeasured(): FormValues {
    const entered = this.saved.get('v1.vitalSigns') ?? {};
    return {
      ...entered,
      bloodPressureSystolic: entered.bloodPressureDiastolic ?? null,
      bloodPressureDiastolic: entered.bloodPressureSystolic ?? null,
    };
  }

  private signature(): void {
    if (this.has('signed')) this.add(this.today, { kind: 'sign' });
    if (this.has('signedThenChanged')) {
      this.add(this.today, { kind: 'sign' });
      const before = this.saved.get('v6.vitalSigns') ?? {};
      const temperature = Number(before.bodyTemperature ?? 36.5);
      this.save(
        this.today,
        'v6',
        'vitalSigns',
        { ...before, bodyTemperature: round(temperature + 0.3, 1) },
        {
          reasons: { bodyTemperature: '원자료 재확인 결과 체온 오기 정정' },
        },
      );
      // The investigator signs the corrected casebook again (the first signature stays, invalidated):
      // with its SDV done and no query left, it is the demo's casebook ready to lock (issue 43 item 9:
      // the readiness board said "Ready: 0 of 32").
      this.add(this.today, { kind: 'sign' });
    }
  }

  // ---- plumbing ----

  private date(visit: Visit): string {
    const date = this.visitDates.get(visit);
    if (!date) throw new Error(`no ${visit} date`);
    return date;
  }

  private has(twist: NonNullable<DemoSubjectPlan['twists']>[number]): boolean {
    return this.plan.twists?.includes(twist) ?? false;
  }

  private add(date: string, action: DemoAction): void {
    this.steps.push({ date, action });
  }

  private save(
    date: string,
    visitKey: string,
    formKey: string,
    values: FormValues,
    options: { reasons?: Record<string, string>; byInvestigator?: boolean } = {},
  ): void {
    this.saved.set(`${visitKey}.${formKey}`, values);
    const photo = formKey === 'tympanicPhoto' && this.has('eardrumPhotos') ? this.eardrum(values) : undefined;
    this.add(date, {
      kind: 'save',
      visitKey,
      formKey,
      values,
      ...(options.reasons ? { reasons: options.reasons } : {}),
      ...(options.byInvestigator ? { byInvestigator: true } : {}),
      ...(photo ? { photo } : {}),
    });
  }

  /** The photo of a tympanicPhoto form: the perforation as typed, against the V1 membrane diameter. */
  private eardrum(values: FormValues): DemoEardrum {
    const diameter = typeof values.perforationDiameter === 'number' ? values.perforationDiameter : 0;
    return {
      perforationRatio: diameter / this.plan.membraneDiameterMm,
      side: this.plan.perforationSite === 'L' ? 'L' : 'R',
      variation: this.random(),
    };
  }

  private integer(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  private pick<T>(choices: readonly T[]): T {
    return choices[Math.floor(this.random() * choices.length)] as T;
  }

  private time(fromHour: number, toHour: number): string {
    const hour = this.integer(fromHour, toHour);
    return `${String(hour).padStart(2, '0')}:${this.pick(['00', '10', '20', '30', '40', '50'])}`;
  }

  /** A value that stays the same however many other draws come before it (the birth date, asked twice). */
  private seedFor(what: string): number {
    return seededRandom(`${this.plan.site}-${this.plan.initials}-${what}`)();
  }
}
