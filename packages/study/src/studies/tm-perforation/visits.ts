import type { UnscheduledVisitDefinition, VisitDefinition } from '../../model/study-definition.ts';
import { t } from './helpers.ts';

// Forms per visit exactly as spec §2 "Forms per visit". Visit windows are relative to V2 (device application
// day). They are DEFAULTS chosen for the software, not clinical facts: the protocol's values replace them.
export const visits: VisitDefinition[] = [
  {
    key: 'consentScreening',
    label: t('동의/스크리닝 번호 부여', 'Consent / screening number'),
    group: 'consent',
    forms: ['consentScreening'],
  },
  {
    key: 'v1',
    label: t('스크리닝 (V1)', 'Screening (V1)'),
    group: 'screening',
    window: { anchorVisit: 'v2', offsetDays: -14, minusDays: 14, plusDays: 14 },
    forms: [
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
    ],
  },
  {
    key: 'v2',
    label: t('기저 방문 (V2)', 'Baseline (V2)'),
    group: 'baseline',
    forms: [
      'visitDay',
      'physicalExam',
      'vitalSigns',
      'otoscopyEndoscopy',
      'tympanicPhoto',
      'ptaTest',
      'inclusionExclusionEval',
      'randomizationNumber',
      'deviceApplication',
      'interestAdverseEvent',
    ],
  },
  ...(['v3', 'v4', 'v5'] as const).map(
    (key, index): VisitDefinition => ({
      key,
      label: t(`추적 관찰 (${key.toUpperCase()})`, `Follow-up (${key.toUpperCase()})`),
      group: 'follow_up',
      window: [
        { anchorVisit: 'v2', offsetDays: 14, minusDays: 3, plusDays: 3 },
        { anchorVisit: 'v2', offsetDays: 28, minusDays: 7, plusDays: 7 },
        { anchorVisit: 'v2', offsetDays: 56, minusDays: 7, plusDays: 7 },
      ][index],
      forms: [
        'visitDay',
        'physicalExam',
        'vitalSigns',
        'otoscopyEndoscopy',
        'tympanicPhoto',
        'impedanceAudiometry',
        'interestAdverseEvent',
      ],
    }),
  ),
  {
    key: 'v6',
    label: t('종료 방문 (V6)', 'End of study (V6)'),
    group: 'end_of_study',
    window: { anchorVisit: 'v2', offsetDays: 84, minusDays: 7, plusDays: 7 },
    forms: [
      'visitDay',
      'physicalExam',
      'vitalSigns',
      'labTest',
      'pregnancyTest',
      'otoscopyEndoscopy',
      'tympanicPhoto',
      'impedanceAudiometry',
      'interestAdverseEvent',
    ],
  },
  {
    key: 'all',
    label: t('전체', 'All'),
    group: 'all',
    forms: [
      'adverseEvent',
      'concomitantDrugs',
      'treatmentInvestigation',
      'endExamination',
      'testDirectorSigning',
    ],
  },
];

/**
 * What an unscheduled visit may hold (issue 19 item 1): the examinations of a follow-up visit, hearing and
 * the events of interest. Its date and reason are given when it is added and kept with the visit, so the
 * visit-day form (which dates the scheduled visits and their windows) is not among them.
 */
export const unscheduledVisit: UnscheduledVisitDefinition = {
  label: t('비정기 방문', 'Unscheduled visit'),
  forms: [
    'physicalExam',
    'vitalSigns',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'ptaTest',
    'interestAdverseEvent',
  ],
};
