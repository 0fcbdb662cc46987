import type { LocalizedText } from '../../model/localized-text.ts';
import type { ItemDefinition, ItemType, SectionDefinition } from '../../model/study-definition.ts';

// Authoring shorthands for this study's definition. They only build plain JSON.

/** Comments and opinions are limited to 3500 characters (spec §5, §9). */
export const TEXT_MAX_LENGTH = 3500;
/** Short free-text fields. */
export const SHORT_TEXT_MAX_LENGTH = 200;

export const t = (ko: string, en: string): LocalizedText => ({ ko, en });

type ItemExtras = Omit<ItemDefinition, 'key' | 'type' | 'label'>;

export function item(
  key: string,
  type: ItemType,
  label: LocalizedText,
  extras: ItemExtras = {},
): ItemDefinition {
  const withLimit = (type === 'text' || type === 'textarea') && extras.maxLength === undefined;
  const maxLength = type === 'textarea' ? TEXT_MAX_LENGTH : SHORT_TEXT_MAX_LENGTH;
  return { key, type, label, ...(withLimit ? { maxLength } : {}), ...extras };
}

type SectionExtras = Omit<SectionDefinition, 'key' | 'label' | 'items'>;

export function section(
  key: string,
  label: LocalizedText,
  items: ItemDefinition[],
  extras: SectionExtras = {},
): SectionDefinition {
  return { key, label, ...extras, items };
}

/** The "not done" checkbox; a section names it in `notDoneItem`. */
export const ndItem = (key = 'nd'): ItemDefinition =>
  item(key, 'checkbox', t('ND (시행하지 않음)', 'ND (not done)'));

export const opinionItem = (key = 'opinion', label = t('소견', 'Opinion')): ItemDefinition =>
  item(key, 'textarea', label);

export const dateItem = (key: string, label: LocalizedText, extras: ItemExtras = {}): ItemDefinition =>
  item(key, 'date', label, { notFuture: true, ...extras });
