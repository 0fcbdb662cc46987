import type { ParameterDefinition } from '../../model/study-definition.ts';
import { t } from './helpers.ts';

// Thresholds and date windows of spec §5 and §9, named so that checks read `{ "param": … }` and a study
// administrator changes a value in one place.
export const parameters: Record<string, ParameterDefinition> = {
  minimumAge: { value: 15, label: t('최소 연령(만 나이)', 'Minimum age (years)') },
  perforationMinPercent: { value: 20, label: t('천공 크기 하한(%)', 'Smallest perforation (%)') },
  perforationMaxPercent: { value: 60, label: t('천공 크기 상한(%)', 'Largest perforation (%)') },
  egfrThreshold: { value: 30, label: t('eGFR 기준(mL/min/1.73m²)', 'eGFR threshold (mL/min/1.73m²)') },
  medicalHistoryWindowDays: {
    value: 84,
    label: t('병력 수집 기간(일, 12주)', 'Medical history window (days, 12 weeks)'),
  },
  priorMedicationWindowDays: {
    value: 28,
    label: t('선행 약물·치료 수집 기간(일, 4주)', 'Prior medication and treatment window (days, 4 weeks)'),
  },
  labWindowDays: {
    value: 14,
    label: t('실험실 검사 대체 인정 기간(일, 2주)', 'Lab result substitution window (days, 2 weeks)'),
  },
  audiometryImagingWindowDays: {
    value: 365,
    label: t(
      '청력·영상 검사 대체 인정 기간(일, 1년)',
      'Audiometry and imaging substitution window (days, 1 year)',
    ),
  },
  otherTrialWindowDays: {
    value: 30,
    label: t('타 임상시험 참여 제한 기간(일)', 'Other clinical trial exclusion window (days)'),
  },
};
