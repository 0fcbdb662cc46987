import type { Expression } from '../../model/expression.ts';
import { and, eq, gt, lt, or, ref } from '../../model/expression-builders.ts';
import type { ItemDefinition } from '../../model/study-definition.ts';

// The physiological ranges of TMP-2026's numeric items (issue 43 item 3). Each item carries two:
// - min/max, the soft range: what the study's adults are expected to show. Outside it the save opens a
//   system query, for the site to confirm against the source or correct;
// - hardMin/hardMax, the hard limits: what no living adult (or no audiometer) can give. Outside them the
//   save is refused — a unit or typing slip (99 °C, 320 mmHg) never reaches the database.
// The figures and their clinical sources are in docs/CLINICAL-RANGES.md; change both together.

export type ItemRange = Required<Pick<ItemDefinition, 'hardMin' | 'hardMax'>> &
  Pick<ItemDefinition, 'min' | 'max'>;

export const CLINICAL_RANGES = {
  /** mmHg. Soft: hypotension < 90 (AHA), grade 2 hypertension ≥ 160 (ESC/ESH 2018). */
  bloodPressureSystolic: { hardMin: 50, min: 90, max: 159, hardMax: 260 },
  /** mmHg. Soft: hypotension < 60 (AHA), grade 2 hypertension ≥ 100 (ESC/ESH 2018). */
  bloodPressureDiastolic: { hardMin: 30, min: 60, max: 99, hardMax: 160 },
  /** beats/min. Soft: bradycardia < 50 (ACC/AHA/HRS 2018), tachycardia > 100. */
  heartRate: { hardMin: 25, min: 50, max: 100, hardMax: 220 },
  /** °C. Soft: hypothermia < 35.0, fever ≥ 38.0. */
  bodyTemperature: { hardMin: 30, min: 35, max: 37.9, hardMax: 43 },
  /** cm, adults. */
  height: { hardMin: 100, min: 140, max: 200, hardMax: 230 },
  /** kg, adults. */
  weight: { hardMin: 25, min: 35, max: 150, hardMax: 250 },
  /** mm. A perforation found at otoscopy: 0 is no perforation; no adult eardrum is 12 mm across. */
  perforationSize: { hardMin: 0, min: 0.5, max: 10, hardMax: 12 },
  /** mm. 0 is a healed eardrum, so there is no soft lower bound. */
  perforationDiameter: { hardMin: 0, max: 10, hardMax: 12 },
  /** mm. The adult eardrum is about 8–10 mm across. */
  totalDiameter: { hardMin: 5, min: 7, max: 11, hardMax: 15 },
  /** dB HL, air conduction: the audiometer's scale is −10 to 120; above 100 is profound loss. */
  airThreshold: { hardMin: -10, min: -10, max: 100, hardMax: 120 },
  /** dB HL, bone conduction: bone vibrators give at most about 70 dB HL at 1–4 kHz. */
  boneThreshold: { hardMin: -10, min: -10, max: 70, hardMax: 120 },
} as const satisfies Record<string, ItemRange>;

/**
 * BMI is derived from height and weight (kg/m²), so it has no hard limits of its own (the two items
 * have them); a value outside the soft range asks the site to confirm. WHO: < 16 severe thinness,
 * ≥ 40 obesity class III.
 */
export const BMI_RANGE = { min: 16, max: 40 } as const;

/** True while the item's value lies outside its soft range; unknown (the check passes) while it is empty. */
export function outsideSoftRange(itemKey: string, range: ItemRange): Expression {
  const value = ref(itemKey);
  const bounds: Expression[] = [];
  if (range.min !== undefined) bounds.push(lt(value, range.min));
  if (range.max !== undefined) bounds.push(gt(value, range.max));
  return or(...bounds);
}

/**
 * A result the investigator called normal while any of the items lies outside its soft range: the two
 * contradict each other, so the site is asked which is right.
 */
export function normalDespiteOutOfRange(
  resultKey: string,
  normalCode: string,
  items: [itemKey: string, range: ItemRange][],
): Expression {
  return and(
    eq(ref(resultKey), normalCode),
    or(...items.map(([key, range]) => outsideSoftRange(key, range))),
  );
}
