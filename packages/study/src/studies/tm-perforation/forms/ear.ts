import type { Band } from '../../../model/expression.ts';
import {
  and,
  band,
  daysBetween,
  gt,
  isYes,
  not,
  notEmpty,
  op,
  param,
  ref,
  round,
} from '../../../model/expression-builders.ts';
import type { FormDefinition, ItemDefinition, SectionDefinition } from '../../../model/study-definition.ts';
import { CLINICAL_RANGES } from '../clinical-ranges.ts';
import { dateItem, item, ndItem, opinionItem, section, t } from '../helpers.ts';
import { SCREENING_DATE } from '../refs.ts';

export const otoscopyEndoscopyForm: FormDefinition = {
  key: 'otoscopyEndoscopy',
  label: t('이경/내시경 검사', 'Otoscopy / endoscopy'),
  sections: [
    section(
      'otoscopy',
      t('이경/내시경 검사', 'Otoscopy / endoscopy'),
      [
        ndItem(),
        item('perforation', 'yesNo', t('고막 천공 유무', 'Perforation present'), {
          display: 'radio',
          required: true,
        }),
        item('perforationSize', 'decimal', t('천공 크기', 'Perforation size'), {
          unit: 'mm',
          decimals: 1,
          ...CLINICAL_RANGES.perforationSize,
          showWhen: isYes('perforation'),
          requiredWhen: isYes('perforation'),
          critical: true,
        }),
        item('otorrhea', 'yesNo', t('이루(귀 분비물) 유무', 'Ear discharge (otorrhoea) present'), {
          display: 'radio',
          required: true,
        }),
      ],
      { notDoneItem: 'nd' },
    ),
  ],
};

// Issue 19 item 2: the photograph and the tracing drawn on it are item values of this form
// (docs/tympanic-photo.md). A complete tracing (both outlines, or both drawn diameters) makes the method
// "traced": the percent comes from the tracing and the diameters in mm may stay empty; without one the
// diameters are typed as before.
const tracedDiameterPercent = op('tracingDiameterPercent', ref('tracing'));
const isTraced = notEmpty(tracedDiameterPercent);

const photoItems = (): ItemDefinition[] => [
  item('photo', 'photo', t('고막 사진', 'Eardrum photograph'), {
    help: t(
      '이경/내시경 사진(JPEG, PNG, HEIC)을 올리십시오. 위치 정보 등 메타데이터는 지워집니다.',
      'Upload the otoscopic or endoscopic photo (JPEG, PNG, HEIC). Location and other metadata are removed.',
    ),
  }),
  item('tracing', 'tracing', t('사진 위 측정', 'Tracing on the photo'), {
    showWhen: notEmpty(ref('photo')),
  }),
  item('measurementMethod', 'singleChoice', t('측정 방법', 'Measurement method'), {
    codeList: 'measurementMethod',
    derive: op('if', isTraced, 'traced', op('if', notEmpty(ref('perforationDiameter')), 'typed', null)),
  }),
  item('perforationAreaPercent', 'decimal', t('천공 면적 비율', 'Perforation area percent'), {
    unit: '%',
    decimals: 1,
    showWhen: isTraced,
    derive: round(op('tracingAreaPercent', ref('tracing')), 1),
  }),
];

const perforationDiameter = (): ItemDefinition =>
  item('perforationDiameter', 'decimal', t('천공 직경', 'Perforation diameter'), {
    unit: 'mm',
    decimals: 1,
    ...CLINICAL_RANGES.perforationDiameter,
    requiredWhen: not(isTraced),
    // The primary endpoint is computed from it.
    critical: true,
  });

// product.md: perforation % = perforation diameter / total TM diameter × 100. V2 and later visits have no
// total diameter of their own, so their percent uses the V1 total diameter. Traced, it is the tracing's
// diameter ratio.
const perforationPercent = (totalDiameterRef: string): ItemDefinition =>
  item('perforationPercent', 'decimal', t('천공 비율', 'Perforation percent'), {
    unit: '%',
    decimals: 1,
    derive: round(
      op(
        'if',
        isTraced,
        tracedDiameterPercent,
        op('percent', ref('perforationDiameter'), ref(totalDiameterRef)),
      ),
      1,
    ),
  });

const photoSection = (items: ItemDefinition[]): SectionDefinition =>
  section('photo', t('고막 사진 평가', 'Tympanic membrane photograph'), [...photoItems(), ...items]);

const baselineDiameter = ref('v2.tympanicPhoto.perforationDiameter');
const baselinePercent = ref('v2.tympanicPhoto.perforationPercent');
const V1_TOTAL = 'v1.tympanicPhoto.totalDiameter';

export const tympanicPhotoForm: FormDefinition = {
  key: 'tympanicPhoto',
  label: t('고막 사진', 'Tympanic membrane photograph'),
  // V3: perforation only. V1, V2 and V4–V6 have their own layouts below.
  sections: [photoSection([perforationDiameter(), perforationPercent(V1_TOTAL)])],
  variants: [
    {
      visits: ['v1'],
      sections: [
        photoSection([
          item('totalDiameter', 'decimal', t('고막 전체 직경', 'Total tympanic membrane diameter'), {
            unit: 'mm',
            decimals: 1,
            ...CLINICAL_RANGES.totalDiameter,
            requiredWhen: not(isTraced),
          }),
          perforationDiameter(),
          perforationPercent('totalDiameter'),
        ]),
      ],
    },
    {
      visits: ['v2'],
      sections: [photoSection([perforationDiameter(), perforationPercent(V1_TOTAL)])],
    },
    {
      visits: ['v4', 'v5', 'v6'],
      sections: [
        photoSection([
          perforationDiameter(),
          perforationPercent(V1_TOTAL),
          item(
            'decreasePercent',
            'decimal',
            t('기저 방문(V2) 대비 천공 감소율', 'Decrease versus baseline (V2)'),
            {
              unit: '%',
              decimals: 1,
              // (V2 percent − current percent) / V2 percent × 100: the same as the diameters' ratio when
              // both were typed (one V1 total divides both); a tracing has only the percent. Without the
              // percents (no V1 total), (V2 diameter − current diameter) / V2 diameter × 100.
              derive: round(
                op(
                  'if',
                  and(notEmpty(baselinePercent), notEmpty(ref('perforationPercent'))),
                  op('percent', op('sub', baselinePercent, ref('perforationPercent')), baselinePercent),
                  op('percent', op('sub', baselineDiameter, ref('perforationDiameter')), baselineDiameter),
                ),
                1,
              ),
            },
          ),
          item('regeneration', 'yesNo', t('고막 재생 여부', 'Membrane regeneration'), {
            display: 'radio',
            required: true,
          }),
          item('evaluation', 'singleChoice', t('평가', 'Evaluation'), {
            codeList: 'healingEvaluation',
            display: 'radio',
            required: true,
            critical: true,
          }),
          opinionItem(),
        ]),
      ],
    },
  ],
  checks: [
    {
      id: 'tympanicPhoto.perforationLargerThanMembrane',
      item: 'perforationDiameter',
      visits: ['v1'],
      when: gt(ref('perforationDiameter'), ref('totalDiameter')),
      severity: 'query',
      message: t(
        '천공 직경이 고막 전체 직경보다 큽니다.',
        'The perforation diameter is larger than the membrane diameter.',
      ),
    },
  ],
};

const imagingSubstitutionMessage = t(
  '검사일이 스크리닝 1년 이전입니다. 대체 인정 기간(1년)을 확인하십시오.',
  'The examination is more than 1 year before screening. Please check the substitution window (1 year).',
);

export const tbctImagingForm: FormDefinition = {
  key: 'tbctImaging',
  label: t('측두골 CT 촬영', 'Temporal bone CT'),
  sections: [
    section(
      'imaging',
      t('측두골 CT 촬영', 'Temporal bone CT'),
      [
        ndItem(),
        dateItem('imagingDate', t('촬영일', 'Imaging date'), { required: true }),
        item(
          'fractureOrDamage',
          'yesNo',
          t('측두골 골절 또는 이소골 손상', 'Temporal bone fracture or ossicular damage'),
          {
            display: 'radio',
            required: true,
          },
        ),
      ],
      {
        notDoneItem: 'nd',
        help: t(
          '스크리닝 전 1년 이내의 결과는 대체할 수 있습니다.',
          'Results from within 1 year before screening may be used instead.',
        ),
      },
    ),
  ],
  checks: [
    {
      id: 'tbctImaging.outsideWindow',
      item: 'imagingDate',
      when: gt(daysBetween(ref('imagingDate'), ref(SCREENING_DATE)), param('audiometryImagingWindowDays')),
      severity: 'query',
      message: imagingSubstitutionMessage,
    },
  ],
  outcomes: [
    {
      id: 'tbctImaging.fractureOrDamage',
      kind: 'excluded',
      when: isYes('fractureOrDamage'),
      target: { visit: 'all', form: 'endExamination' },
      message: t(
        '측두골 골절 또는 이소골 손상이 있어 대상자는 임상시험에서 제외됩니다. 종료 검사를 작성하십시오.',
        'Temporal bone fracture or ossicular damage: the subject is excluded from the study. Complete the end of study.',
      ),
    },
  ],
};

export const impedanceAudiometryForm: FormDefinition = {
  key: 'impedanceAudiometry',
  label: t('임피던스 청력 검사', 'Impedance audiometry'),
  sections: [
    section(
      'tympanometry',
      t('고막운동성 검사', 'Tympanometry'),
      [
        ndItem(),
        // Not in the prototype: needed to check the 1-year substitution window of spec §5.
        dateItem('examDate', t('검사일', 'Examination date'), { required: true }),
        item('result', 'singleChoice', t('결과', 'Result'), {
          codeList: 'tympanogramType',
          display: 'radio',
          required: true,
        }),
      ],
      { notDoneItem: 'nd' },
    ),
  ],
  checks: [
    {
      id: 'impedanceAudiometry.outsideWindow',
      item: 'examDate',
      visits: ['v1'],
      when: gt(daysBetween(ref('examDate'), ref(SCREENING_DATE)), param('audiometryImagingWindowDays')),
      severity: 'query',
      message: imagingSubstitutionMessage,
    },
  ],
};

const FREQUENCIES = [500, 1000, 2000, 4000] as const;

/** spec §5 hearing bands (whole dB), coded 001–007. */
export const HEARING_SEVERITY_BANDS: Band[] = [
  { min: -10, max: 15, value: '001' },
  { min: 16, max: 25, value: '002' },
  { min: 26, max: 40, value: '003' },
  { min: 41, max: 55, value: '004' },
  { min: 56, max: 70, value: '005' },
  { min: 71, max: 90, value: '006' },
  { min: 91, value: '007' },
];

function ptaSection(prefix: 'air' | 'bone', label: [string, string]): SectionDefinition {
  const thresholds = FREQUENCIES.map((hz) => ref(`${prefix}${hz}`));
  const items: ItemDefinition[] = [
    ndItem(`${prefix}Nd`),
    ...FREQUENCIES.map((hz) =>
      item(`${prefix}${hz}`, 'integer', t(`${hz} Hz 역치`, `${hz} Hz threshold`), {
        unit: 'dB',
        ...(prefix === 'air' ? CLINICAL_RANGES.airThreshold : CLINICAL_RANGES.boneThreshold),
        required: true,
      }),
    ),
    // An average of fewer than four thresholds would misstate the hearing level, so all four are needed.
    item(`${prefix}Average`, 'decimal', t('평균 청력역치', 'Average threshold'), {
      unit: 'dB',
      decimals: 1,
      derive: op('if', and(...thresholds.map((r) => notEmpty(r))), round(op('avg', ...thresholds), 1), null),
    }),
  ];
  if (prefix === 'air') {
    // The bands are whole decibels, so the average is rounded to a whole dB before the lookup.
    items.push(
      item('airSeverity', 'singleChoice', t('난청 정도', 'Hearing loss severity'), {
        codeList: 'hearingSeverity',
        derive: band(round(ref('airAverage'), 0), HEARING_SEVERITY_BANDS),
      }),
    );
  }
  return section(prefix, t(label[0], label[1]), items, { notDoneItem: `${prefix}Nd` });
}

export const ptaTestForm: FormDefinition = {
  key: 'ptaTest',
  label: t('순음 청력 검사(PTA)', 'Pure tone audiometry (PTA)'),
  sections: [
    ptaSection('air', ['기도 청력', 'Air conduction']),
    ptaSection('bone', ['골도 청력', 'Bone conduction']),
  ],
};
