import type { Signal, SiteSummary } from '@cdms/contract';
import type { Selectable } from 'kysely';
import type { MonitoringSignalsTable } from '../db/schema.ts';
import type { SignalItemDraft, SignalSubjectDraft } from './signal-draft.ts';

export type SignalRow = Selectable<MonitoringSignalsTable> & {
  site_code: string;
  site_name: string;
  site_institution_number: string;
};

/** A stored signal as the API shows it (the query place kept per subject is left out). */
export function presentSignal(row: SignalRow): Signal {
  const site: SiteSummary = {
    id: row.site_id,
    code: row.site_code,
    name: row.site_name,
    institutionNumber: row.site_institution_number,
  };
  const resolution = row.resolution as { by: string; at: string; text: string; queryIds: number[] } | null;
  return {
    id: row.id,
    kind: row.kind as Signal['kind'],
    site,
    strength: row.strength,
    title: row.title,
    explanation: row.explanation,
    items: (row.items as SignalItemDraft[]).map((item) => ({
      visitKey: item.visitKey,
      formKey: item.formKey,
      itemKey: item.itemKey,
      label: item.label,
    })),
    subjects: (row.subjects as SignalSubjectDraft[]).map((subject) => ({
      subjectId: subject.subjectId,
      screeningNumber: subject.screeningNumber,
    })),
    numbers: row.numbers,
    chart: row.chart as Signal['chart'],
    state: row.state,
    resolution: resolution
      ? { by: resolution.by, at: resolution.at, text: resolution.text, queryIds: resolution.queryIds ?? [] }
      : null,
    foundAt: row.found_at.toISOString(),
  };
}
