import type { Band } from '../model/expression.ts';
import type { LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';
import { getStudyIndex } from './study-index.ts';

/**
 * What an audiogram of the pure tone audiometry form needs (issue 19 item 3), read from the study
 * definition so that the chart follows the form: the frequencies whose thresholds the form asks for
 * (items `air<Hz>` and `bone<Hz>`), the hearing-severity bands of its derived severity item (the
 * `band` lookup and its code list's labels), and where the study keeps the treated ear.
 */
export const AUDIOGRAM_FORM_KEY = 'ptaTest';

/** The ear the device is applied to (spec §2 diseaseBasicInfo at screening), which the audiogram shows. */
export const AUDIOGRAM_EAR_SOURCE = {
  visitKey: 'v1',
  formKey: 'diseaseBasicInfo',
  itemKey: 'applicationSite',
};

export type AudiogramConduction = 'air' | 'bone';

export interface AudiogramBand {
  /** Inclusive limits in dB HL; null is open-ended. */
  min: number | null;
  max: number | null;
  code: string;
  label: LocalizedText;
}

export interface AudiogramLayout {
  /** Ascending, in Hz. */
  frequencies: number[];
  /** The threshold item of each frequency, per conduction (`air500`…). */
  items: Record<AudiogramConduction, Map<number, string>>;
  bands: AudiogramBand[];
}

const THRESHOLD_ITEM = /^(air|bone)(\d+)$/;

/** The layout of the study's PTA form, or null for a study without one. */
export function audiogramLayout(definition: StudyDefinition): AudiogramLayout | null {
  const form = definition.forms.find((entry) => entry.key === AUDIOGRAM_FORM_KEY);
  if (!form) return null;
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
  return { frequencies, items, bands };
}
