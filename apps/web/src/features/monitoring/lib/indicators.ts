import type { KriKey, TrafficLight } from '@cdms/contract';

/** A text the server answers in both languages (contract `localizedSchema`). */
export interface Localized {
  ko: string;
  en: string;
}

/**
 * How each indicator's value is written: rates per subject or form with two decimals, percentages
 * and days with one. The unit itself is in the locale (`kri.<key>.unit`).
 */
const decimalsOf: Record<KriKey, number> = {
  queryRate: 1,
  queryAnswerDays: 1,
  entryLagDays: 1,
  missingForms: 2,
  overdueVisits: 2,
  protocolDeviations: 2,
  adverseEventRate: 2,
  seriousAdverseEventRate: 2,
  screeningFailureRate: 1,
  sdvFindings: 1,
  correctionsPerForm: 2,
  overdueSaeReports: 1,
};

/** An indicator's value for a cell; a dash without a denominator. */
export function formatIndicator(key: KriKey, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  return value.toFixed(decimalsOf[key]);
}

/** A figure behind a signal: whole numbers as they are, others with up to three decimals. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) < 0.001 && value !== 0) return value.toExponential(2);
  return String(Number(value.toFixed(3)));
}

/** A numerator or denominator: whole counts as they are, sums of days or subject-months with one decimal. */
export function formatCount(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Strength 0–1 as a whole percent. */
export function strengthPercent(strength: number): number {
  return Math.round(Math.min(1, Math.max(0, strength)) * 100);
}

/**
 * The traffic light's shape beside its colour, so the light is not told by colour alone: a circle
 * within the limits, a triangle at the warning, a square past the limit, a hollow ring without data.
 */
export const lightSymbol: Record<TrafficLight, string> = {
  green: '●',
  amber: '▲',
  red: '■',
  none: '○',
};

/** Worst first: the order a panel or a legend lists lights in. */
export const lightRank: Record<TrafficLight, number> = { red: 0, amber: 1, green: 2, none: 3 };

/** A text the server gives in both languages, in the reader's. */
export function localized(text: Localized, language: string): string {
  return language === 'en' ? text.en || text.ko : text.ko || text.en;
}
