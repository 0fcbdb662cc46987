import type { Band } from '../model/expression.ts';
import type { LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';
import { getStudyIndex } from './study-index.ts';

/**
 * What an audiogram of the pure tone audiometry form needs (issue 19 item 3), read from the study
 * definition so that the chart follows the form: the form (the `audiogram` role), the frequencies
 * whose thresholds it asks for (items `air<Hz>` and `bone<Hz>`), the hearing-severity bands of its
 * derived severity item (the `band` lookup and its code list's labels), and where the study keeps the
 * treated ear.
 */

export type AudiogramConduction = 'air' | 'bone';

/** Where the study keeps the treated ear, whose symbols the chart uses (the role's `treatedEar`). */
export interface AudiogramEarSource {
  visit: string;
  form: string;
  item: string;
  rightCode: string;
  leftCode: string;
}

export interface AudiogramBand {
  /** Inclusive limits in dB HL; null is open-ended. */
  min: number | null;
  max: number | null;
  code: string;
  label: LocalizedText;
}

export interface AudiogramLayout {
  /** The audiometry form whose thresholds are charted. */
  form: string;
  /** Where the treated ear is kept; null when the study does not record it. */
  treatedEar: AudiogramEarSource | null;
  /** Ascending, in Hz. */
  frequencies: number[];
  /** The threshold item of each frequency, per conduction (`air500`…). */
  items: Record<AudiogramConduction, Map<number, string>>;
  bands: AudiogramBand[];
}

const THRESHOLD_ITEM = /^(air|bone)(\d+)$/;

/** The layout of the study's audiometry form (its `audiogram` role), or null for a study without one. */
export function audiogramLayout(definition: StudyDefinition): AudiogramLayout | null {
  const role = definition.roles?.audiogram;
  const form = definition.forms.find((entry) => entry.key === role?.form);
  if (!role || !form) return null;
  const items: AudiogramLayout['items'] = { air: new Map(), bone: new Map() };
  let bands: AudiogramBand[] = [];
  const codeLists = getStudyIndex(definition).codeLists;
  for (const item of form.sections.flatMap((section) => section.items)) {
    const match = THRESHOLD_ITEM.exec(item.key);
    if (match && item.type === 'integer') {
      items[match[1] as AudiogramConduction].set(Number(match[2]), item.key);
      continue;
    }
    const derive = item.derive;
    if (
      typeof derive === 'object' &&
      derive !== null &&
      'op' in derive &&
      derive.op === 'band' &&
      derive.bands &&
      item.codeList
    ) {
      const labels = new Map((codeLists.get(item.codeList) ?? []).map((entry) => [entry.code, entry.label]));
      bands = derive.bands.map((entry: Band) => ({
        min: entry.min ?? null,
        max: entry.max ?? null,
        code: String(entry.value),
        label: labels.get(String(entry.value)) ?? { ko: String(entry.value), en: String(entry.value) },
      }));
    }
  }
  const frequencies = [...new Set([...items.air.keys(), ...items.bone.keys()])].sort((a, b) => a - b);
  if (frequencies.length === 0) return null;
  return { form: form.key, treatedEar: role.treatedEar ?? null, frequencies, items, bands };
}

/** The chart's ear of a stored treated-ear value: R, L, or null (unknown, or not recorded). */
export function audiogramEarOf(layout: AudiogramLayout, value: unknown): 'R' | 'L' | null {
  if (layout.treatedEar === null) return null;
  if (value === layout.treatedEar.rightCode) return 'R';
  if (value === layout.treatedEar.leftCode) return 'L';
  return null;
}

/**
 * The audiogram's axes, shared by the form's chart and the casebook PDF so both draw the same picture:
 * frequency on a logarithmic axis from 250 to 8000 Hz, hearing level from −10 to 120 dB HL increasing
 * downwards. Positions are fractions of the plot (0 = left/top, 1 = right/bottom).
 */
export const AUDIOGRAM_AXIS_FREQUENCIES = [250, 500, 1000, 2000, 4000, 8000] as const;
export const AUDIOGRAM_DB_RANGE = { min: -10, max: 120, step: 10 } as const;

const LOG_LOW = Math.log2(AUDIOGRAM_AXIS_FREQUENCIES[0]);
const LOG_HIGH = Math.log2(AUDIOGRAM_AXIS_FREQUENCIES[AUDIOGRAM_AXIS_FREQUENCIES.length - 1] as number);

/** Where a frequency stands across the plot (0..1). */
export function audiogramXFraction(hz: number): number {
  return (Math.log2(hz) - LOG_LOW) / (LOG_HIGH - LOG_LOW);
}

/** Where a hearing level stands down the plot (0..1); levels beyond the axis are drawn at its edge. */
export function audiogramYFraction(db: number): number {
  const clamped = Math.min(AUDIOGRAM_DB_RANGE.max, Math.max(AUDIOGRAM_DB_RANGE.min, db));
  return (clamped - AUDIOGRAM_DB_RANGE.min) / (AUDIOGRAM_DB_RANGE.max - AUDIOGRAM_DB_RANGE.min);
}

/** The hearing levels the axis labels, every 10 dB. */
export function audiogramDbTicks(): number[] {
  const ticks: number[] = [];
  for (let db = AUDIOGRAM_DB_RANGE.min; db <= AUDIOGRAM_DB_RANGE.max; db += AUDIOGRAM_DB_RANGE.step)
    ticks.push(db);
  return ticks;
}

/** A band's top and bottom as fractions of the plot (its limits are whole dB, inclusive). */
export function audiogramBandSpan(band: AudiogramBand): { top: number; bottom: number } {
  return {
    top: audiogramYFraction(band.min === null ? AUDIOGRAM_DB_RANGE.min : band.min - 0.5),
    bottom: audiogramYFraction(band.max === null ? AUDIOGRAM_DB_RANGE.max : band.max + 0.5),
  };
}

export interface AudiogramPoint {
  hz: number;
  db: number;
}

/**
 * The thresholds of one PTA form as points per conduction, read through `readValue(itemKey)`: numbers
 * only, and none for a conduction the form marks not done (`airNd`, `boneNd`).
 */
export function audiogramPoints(
  layout: AudiogramLayout,
  readValue: (itemKey: string) => unknown,
): Record<AudiogramConduction, AudiogramPoint[]> {
  const points: Record<AudiogramConduction, AudiogramPoint[]> = { air: [], bone: [] };
  for (const conduction of ['air', 'bone'] as const) {
    if (readValue(`${conduction}Nd`) === true) continue;
    for (const hz of layout.frequencies) {
      const itemKey = layout.items[conduction].get(hz);
      const value = itemKey === undefined ? undefined : readValue(itemKey);
      if (typeof value === 'number' && Number.isFinite(value)) points[conduction].push({ hz, db: value });
    }
  }
  return points;
}
