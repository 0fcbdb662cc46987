import type { LocalizedText } from '../../model/localized-text.ts';
import { t } from './helpers.ts';

// Eligibility criteria (spec §5). Each entry becomes a yes/no item of inclusionExclusionEval plus its
// consistency check, so adding a criterion is adding one entry here (see README "Adding an exclusion
// criterion"). Inclusion: "Y" means the criterion is met. Exclusion: "Y" means the criterion applies.

export interface Criterion {
  key: string;
  label: LocalizedText;
}

export const inclusionCriteria: Criterion[] = [
  { key: 'inc01', label: t('만 15세 이상인 자', 'Aged 15 years or older') },
  {
    key: 'inc02',
    label: t(
      '3개월 이상 지속된 만성 고막 천공이 있는 자',
      'Chronic tympanic membrane perforation lasting 3 months or more',
    ),
  },
  {
    key: 'inc03',
    label: t(
      '고막 천공의 크기가 고막 전체의 20~60%인 자',
      'Perforation of 20 to 60 percent of the tympanic membrane',
    ),
  },
  {
    key: 'inc04',
    label: t('임상시험 참여에 자발적으로 서면 동의한 자', 'Gave written informed consent to take part'),
  },
];

/**
 * The specification shows 9 of the protocol's 15 exclusion criteria; the other 6 are not known and are not
 * invented here. A study administrator adds them (exc10…exc15) from the protocol.
 */
export const exclusionCriteria: Criterion[] = [
  { key: 'exc01', label: t('육아조직 또는 이루가 있는 자', 'Granulation tissue or otorrhoea') },
  { key: 'exc02', label: t('심한 어지럼 또는 난청이 있는 자', 'Severe vertigo or hearing loss') },
  {
    key: 'exc03',
    label: t(
      '시험기기의 구성 성분 또는 리도카인에 알레르기가 있는 자',
      'Allergy to a component of the investigational device or to lidocaine',
    ),
  },
  {
    key: 'exc04',
    label: t(
      '세펨계 또는 페니실린계 항생제에 알레르기가 있는 자',
      'Allergy to cephem or penicillin antibiotics',
    ),
  },
  { key: 'exc05', label: t('eGFR이 30 mL/min/1.73m² 미만인 자', 'eGFR below 30 mL/min/1.73m²') },
  { key: 'exc06', label: t('임신 또는 수유 중인 여성', 'Pregnant or breastfeeding') },
  {
    key: 'exc07',
    label: t(
      '임상시험 기간 동안 피임에 동의하지 않은 자',
      'Does not agree to use contraception during the trial',
    ),
  },
  {
    key: 'exc08',
    label: t(
      '스크리닝 전 30일 이내에 다른 임상시험에 참여한 자',
      'Took part in another clinical trial within 30 days before screening',
    ),
  },
  {
    key: 'exc09',
    label: t(
      '그 밖에 시험자가 임상시험 참여에 부적합하다고 판단한 자',
      'Judged by the investigator to be unsuitable for the trial',
    ),
  },
];
