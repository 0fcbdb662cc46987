import {
  type DateRangePreset,
  dateRangePresets,
  deriveRange,
  presetDates,
  type SortOrder,
} from '@cdms/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from './alert-dialog.tsx';
import { Button } from './button.tsx';
import { DateRangeFields, type DateRangeFieldsProps } from './date-field.tsx';
import listStyles from './list-page.module.css';

/**
 * The parts every list page shares besides its table (prototype-spec §2/§9): the collapsible filter
 * panel applied with one button, the page-size choice, the sort order, the downloads. Filters, sort
 * and size live in the URL; each page maps them. The table itself is `data-table/DataTable`.
 */
export { listStyles };

/**
 * A list page: a section named by its h1, so a screen reader lists it as a region with the page's
 * title; `headerActions` (buttons, a badge) sit beside the title.
 */
export function ListPage({
  title,
  headerActions,
  children,
}: {
  title: ReactNode;
  headerActions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={listStyles.page} aria-labelledby={headingId}>
      <div className={listStyles.pageHeader}>
        <h1 id={headingId} className={listStyles.pageTitle}>
          {title}
        </h1>
        {headerActions}
      </div>
      {children}
    </section>
  );
}

/** Clicking a column header: the same column flips its order, another column starts ascending. */
export function nextSort<K extends string>(
  current: { sort: K; order: SortOrder },
  column: K,
): { sort: K; order: SortOrder } {
  if (current.sort === column) return { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { sort: column, order: 'asc' };
}

/**
 * The search form in a card that folds away; `onReset` clears the fields and applies at once.
 * `children` are the fields of a one-row panel, the reset and apply buttons placed after them; a
 * panel of several rows passes a function instead, which places the buttons in its last row.
 */
export function FilterPanel({
  onSubmit,
  onReset,
  children,
}: {
  onSubmit: () => void;
  onReset: () => void;
  children: ReactNode | ((actions: ReactNode) => ReactNode);
}) {
  const { t } = useTranslation('ui');
  const [open, setOpen] = useState(true);
  const formId = useId();
  const actions = (
    <div className={listStyles.filterActions}>
      <Button variant="secondary" onClick={onReset}>
        {t('list.reset')}
      </Button>
      <Button type="submit">{t('list.apply')}</Button>
    </div>
  );
  return (
    <div className={`${listStyles.card} ${listStyles.filters}`}>
      <div className={listStyles.filtersHeader}>
        <h2 className={listStyles.filtersTitle}>{t('list.filters')}</h2>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls={formId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? t('list.closeFilters') : t('list.openFilters')}
        </Button>
      </div>
      <form
        id={formId}
        className={listStyles.filterForm}
        hidden={!open}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {typeof children === 'function' ? (
          children(actions)
        ) : (
          <div className={listStyles.filterRow}>
            {children}
            {actions}
          </div>
        )}
      </form>
    </div>
  );
}

/** One choice of a filter panel: a labelled select over `choices`, each shown by `label`. */
export function FilterChoice<T extends string>({
  label,
  choices,
  value,
  optionLabel,
  onChange,
}: {
  label: string;
  choices: readonly T[];
  value: T;
  optionLabel: (choice: T) => string;
  onChange: (choice: T) => void;
}) {
  const id = useId();
  return (
    <div className={listStyles.field}>
      <label className={listStyles.label} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={listStyles.select}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {optionLabel(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The site choice of a filter panel: every site in the reader's scope (''), or one site by id. */
export function SiteFilterChoice({
  label,
  allSitesLabel,
  sites,
  value,
  onChange,
}: {
  label: string;
  allSitesLabel: string;
  sites: readonly { id: number; label: string }[];
  value: number | null;
  onChange: (siteId: number | null) => void;
}) {
  const labels = new Map(sites.map((site) => [String(site.id), site.label]));
  return (
    <FilterChoice
      label={label}
      choices={['', ...sites.map((site) => String(site.id))]}
      value={value === null ? '' : String(value)}
      optionLabel={(choice) => (choice === '' ? allSitesLabel : (labels.get(choice) ?? choice))}
      onChange={(choice) => onChange(choice ? Number(choice) : null)}
    />
  );
}

/**
 * A filter panel's period: its label over the two dates ("start ~ end", `DateRangeFields`) and, where
 * the page offers them, the presets beside them (which wrap below the dates on a narrow panel).
 */
export function FilterPeriod({
  label,
  presets,
  ...dates
}: Omit<DateRangeFieldsProps, 'inputClassName'> & {
  label: string;
  presets?: Pick<PeriodPresetsProps, 'presetLabel' | 'onPick'>;
}) {
  const labelId = useId();
  return (
    <div className={listStyles.field}>
      <span className={listStyles.label} id={labelId}>
        {label}
      </span>
      <div className={presets ? `${listStyles.period} ${listStyles.periodWithPresets}` : listStyles.period}>
        <DateRangeFields inputClassName={listStyles.input} {...dates} />
        {presets ? (
          <PeriodPresets labelledBy={labelId} start={dates.start} end={dates.end} {...presets} />
        ) : null}
      </div>
    </div>
  );
}

interface PeriodPresetsProps {
  /** The id of the period's label. */
  labelledBy: string;
  start: string;
  end: string;
  /** The preset's words, in the page's namespace. */
  presetLabel: (preset: DateRangePreset) => string;
  onPick: (dates: { start: string; end: string }) => void;
}

/**
 * The period presets beside a filter's dates (all, the last 3 or 6 months; prototype-spec §9): a
 * segmented control of toggle buttons, the one whose dates the fields hold pressed. A pick sets both
 * dates; the panel applies them with its search button.
 */
function PeriodPresets({ labelledBy, start, end, presetLabel, onPick }: PeriodPresetsProps) {
  const pressed = deriveRange(start, end);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a segmented control of toggle buttons, not a fieldset of inputs
    <div className={listStyles.presets} role="group" aria-labelledby={labelledBy}>
      {dateRangePresets.map((preset) => (
        <button
          key={preset}
          type="button"
          className={listStyles.preset}
          aria-pressed={pressed === preset}
          onClick={() => onPick(presetDates(preset))}
        >
          {presetLabel(preset)}
        </button>
      ))}
    </div>
  );
}

/** What the lists' text filters (subject numbers, names, keywords) take at the most, as the server does. */
const FILTER_TEXT_MAX = 100;

/** The free-text field of a filter panel (subject numbers, text), taking the rest of the row. */
export function FilterText({
  label,
  value,
  maxLength = FILTER_TEXT_MAX,
  type = 'text',
  placeholder,
  onChange,
}: {
  label: string;
  value: string;
  /** Default FILTER_TEXT_MAX. */
  maxLength?: number;
  /** `search` for a keyword over titles and text (the browser may offer a clear button). */
  type?: 'text' | 'search';
  placeholder?: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  return (
    <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
      <label className={listStyles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        className={listStyles.input}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** In place of a list's table when its first page could not be loaded: what failed, and a retry. */
export function ListLoadError({
  title,
  detail,
  retryLabel,
  onRetry,
}: {
  title: string;
  detail: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <div className={`${listStyles.card} ${listStyles.state} ${listStyles.stateError}`} role="alert">
      <span>{title}</span>
      <span>{detail}</span>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}

/** The rows-per-page choice of a list's toolbar. */
export function PageSizeSelect<T extends number>({
  sizes,
  value,
  onChange,
}: {
  sizes: readonly T[];
  value: T;
  onChange: (size: T) => void;
}) {
  const { t } = useTranslation('ui');
  return (
    <label className={listStyles.pageSize}>
      {t('list.pageSize')}
      <select
        className={listStyles.select}
        value={value}
        onChange={(event) => onChange(Number(event.target.value) as T)}
      >
        {sizes.map((size) => (
          <option key={size} value={size}>
            {t('list.pageSizeOption', { size })}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A list's download button: runs the download, says while it is busy, and shows a failure as an alert. */
export function useListDownload<Format>(run: (format: Format) => Promise<void>): {
  downloading: boolean;
  download: (format: Format) => Promise<void>;
} {
  const alert = useAlert();
  const [downloading, setDownloading] = useState(false);
  async function download(format: Format) {
    setDownloading(true);
    try {
      await run(format);
    } catch (error) {
      void alert.alert({ message: error instanceof Error ? error.message : String(error) });
    } finally {
      setDownloading(false);
    }
  }
  return { downloading, download };
}

/**
 * The CSV and XLSX buttons of a list that downloads both (with `useListDownload`): disabled and
 * busy while a file is being fetched. The page names them in its own words.
 */
export function ListDownloadButtons({
  downloading,
  onDownload,
  csvLabel,
  xlsxLabel,
}: {
  downloading: boolean;
  onDownload: (format: 'csv' | 'xlsx') => void;
  csvLabel: string;
  xlsxLabel: string;
}) {
  return (
    <>
      <Button
        variant="secondary"
        disabled={downloading}
        aria-busy={downloading}
        onClick={() => onDownload('csv')}
      >
        {csvLabel}
      </Button>
      <Button
        variant="secondary"
        disabled={downloading}
        aria-busy={downloading}
        onClick={() => onDownload('xlsx')}
      >
        {xlsxLabel}
      </Button>
    </>
  );
}
