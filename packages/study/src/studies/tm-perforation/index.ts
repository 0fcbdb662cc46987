import type { StudyDefinition } from '../../model/study-definition.ts';
import { codeLists } from './code-lists.ts';
import { endExaminationForm, testDirectorSigningForm } from './forms/closing.ts';
import { consentScreeningForm, visitDayForm } from './forms/consent-and-visit.ts';
import {
  impedanceAudiometryForm,
  otoscopyEndoscopyForm,
  ptaTestForm,
  tbctImagingForm,
  tympanicPhotoForm,
} from './forms/ear.ts';
import {
  deviceApplicationForm,
  inclusionExclusionEvalForm,
  randomizationNumberForm,
} from './forms/eligibility.ts';
import { labTestForm, physicalExamForm, pregnancyTestForm, vitalSignsForm } from './forms/examinations.ts';
import {
  adverseEventForm,
  concomitantDrugsForm,
  interestAdverseEventForm,
  treatmentInvestigationForm,
} from './forms/safety.ts';
import {
  bodyMeasurementForm,
  demographicInfoForm,
  diseaseBasicInfoForm,
  medicalHistoryForm,
} from './forms/screening.ts';
import { t } from './helpers.ts';
import { parameters } from './parameters.ts';
import { roles } from './roles.ts';
import { subjectStatusRules } from './subject-status.ts';
import { unscheduledVisit, visits } from './visits.ts';

/** The chronic tympanic membrane perforation device study (spec §2 "Form content", §5). */
export const tmPerforationStudy: StudyDefinition = {
  key: 'tmPerforation',
  version: '1.0.0',
  label: t('만성 고막 천공 의료기기 임상시험', 'Chronic tympanic membrane perforation device study'),
  visitDate: { form: 'visitDay', item: 'visitDate' },
  parameters,
  codeLists,
  visits,
  unscheduledVisit,
  subjectStatus: subjectStatusRules,
  forms: [
    consentScreeningForm,
    visitDayForm,
    demographicInfoForm,
    diseaseBasicInfoForm,
    bodyMeasurementForm,
    physicalExamForm,
    medicalHistoryForm,
    vitalSignsForm,
    labTestForm,
    pregnancyTestForm,
    otoscopyEndoscopyForm,
    tympanicPhotoForm,
    tbctImagingForm,
    impedanceAudiometryForm,
    ptaTestForm,
    inclusionExclusionEvalForm,
    randomizationNumberForm,
    deviceApplicationForm,
    interestAdverseEventForm,
    adverseEventForm,
    concomitantDrugsForm,
    treatmentInvestigationForm,
    endExaminationForm,
    testDirectorSigningForm,
  ],
  roles,
};

export { exclusionCriteria, inclusionCriteria } from './criteria.ts';
