import type { SignalKind } from '@cdms/contract';

export interface Localized {
  ko: string;
  en: string;
}

/** An item a signal names (the contract's signalItemSchema). */
export interface SignalItemDraft {
  visitKey: string | null;
  formKey: string;
  itemKey: string;
  label: Localized;
}

/**
 * A subject a signal names; `visitKey` (kept in the stored row, not shown) is the visit a query goes
 * on when the signal's item names no visit (a site-level signal over every visit).
 */
export interface SignalSubjectDraft {
  subjectId: number;
  screeningNumber: string;
  visitKey: string | null;
}

export interface SignalChartDraft {
  kind: 'bars' | 'series';
  labels: string[];
  series: { name: Localized; values: (number | null)[] }[];
}

/** A signal as a run finds it, before it is stored by its fingerprint (`store-signals.ts`). */
export interface SignalDraft {
  /** Stable across runs: kind, site and what it is about (item, subjects, visit). */
  fingerprint: string;
  kind: SignalKind;
  siteId: number;
  strength: number;
  title: Localized;
  explanation: Localized;
  items: SignalItemDraft[];
  subjects: SignalSubjectDraft[];
  numbers: Record<string, number>;
  chart: SignalChartDraft;
}

/** 0–1 from a p-value: p = 1e-15 or smaller is 1, p = 1e-3 is 0.2. */
export function strengthOfP(pValue: number): number {
  const p = Math.max(pValue, 1e-300);
  return Math.max(0, Math.min(1, -Math.log10(p) / 15));
}

/** Rounds for display and storage: numbers behind a signal with a sensible number of digits. */
export function rounded(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
