import { type ReactNode, useState } from 'react';
import { panelFieldsOf } from '../lib/list-state.ts';
import type { DataTableColumn } from './data-table/data-table.tsx';
import { FilterPanel, FilterText, SiteFilterChoice } from './list-page.tsx';

// What the SDV page and the readiness board share: both list subjects by site, filtered by site and
// subject, with a sites table whose site names filter the subjects.

interface SiteSubjectFields {
  siteId: number | null;
  subject: string;
}

/**
 * The search form: site, the page's own choices (`choices`: an SDV state, a readiness state and
 * hold) and the subject (screening or randomization number), applied together.
 */
export function SiteSubjectFilterPanel<Fields extends SiteSubjectFields>({
  applied,
  empty,
  sites,
  labels,
  onApply,
  choices,
}: {
  /** The applied filters; only the keys of `empty` are the panel's. */
  applied: Fields;
  /** The panel's fields when reset. */
  empty: Fields;
  sites: readonly { id: number; label: string }[];
  labels: { site: string; allSites: string; subject: string };
  onApply: (fields: Fields) => void;
  choices: (fields: Fields, setFields: (fields: Fields) => void) => ReactNode;
}) {
  const [fields, setFields] = useState<Fields>(() => panelFieldsOf(applied, empty));
  return (
    <FilterPanel
      onSubmit={() => onApply({ ...fields, subject: fields.subject.trim() })}
      onReset={() => {
        setFields(empty);
        onApply(empty);
      }}
    >
      <SiteFilterChoice
        label={labels.site}
        allSitesLabel={labels.allSites}
        sites={sites}
        value={fields.siteId}
        onChange={(siteId) => setFields({ ...fields, siteId })}
      />
      {choices(fields, setFields)}
      <FilterText
        label={labels.subject}
        value={fields.subject}
        onChange={(subject) => setFields({ ...fields, subject })}
      />
    </FilterPanel>
  );
}

/** A line of a sites table: a site, or the study's total beneath them (no site). */
interface SiteLine {
  siteId?: number | undefined;
  site?: string | undefined;
  siteName?: string | undefined;
}

/**
 * The sites table's first column: a site's name is a toggle that filters the subjects to it (pressed
 * while it does); the study's total line names the study.
 */
export function siteFilterColumn<Line extends SiteLine>({
  header,
  studyLabel,
  selected,
  onSelect,
  buttonClassName,
}: {
  header: string;
  studyLabel: string;
  selected: number | null;
  onSelect: (siteId: number | null) => void;
  buttonClassName: string | undefined;
}): DataTableColumn<Line> {
  return {
    id: 'site',
    header,
    rowHeader: true,
    hideable: false,
    cell: (line) =>
      line.siteId === undefined ? (
        studyLabel
      ) : (
        <button
          type="button"
          className={buttonClassName}
          aria-pressed={selected === line.siteId}
          onClick={() => onSelect(selected === line.siteId ? null : (line.siteId ?? null))}
        >
          {line.site} {line.siteName}
        </button>
      ),
  };
}
