import type { AmendmentSummary } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { DateTextField, TextField } from '../../../components/text-field.tsx';
import { formatDateText, isCalendarDate } from '../../../lib/date-text.ts';
import styles from './amendments.module.css';

/** A site's ethics approval date as typed: '' while the site has none. */
export interface SiteDateDraft {
  siteId: number;
  /** The site's code and name, as the dialog and the page show it. */
  label: string;
  effectiveOn: string;
}

/** What the fields say is wrong before anything is sent; the server checks the rest (number's form, sites). */
export interface FieldProblems {
  number?: string;
  dates: Record<number, string>;
}

/** An amendment number's limit (the contract's `amendmentNumberSchema`). */
export const AMENDMENT_NUMBER_MAX = 40;

/** The problems of the typed fields; none when they can be sent. */
export function fieldProblems(
  number: string,
  sites: readonly SiteDateDraft[],
  t: (key: string) => string,
): FieldProblems | null {
  const problems: FieldProblems = { dates: {} };
  if (number.trim() === '') problems.number = t('fields.numberRequired');
  for (const site of sites)
    if (site.effectiveOn !== '' && !isCalendarDate(site.effectiveOn))
      problems.dates[site.siteId] = t('fields.dateInvalid');
  return problems.number || Object.keys(problems.dates).length > 0 ? problems : null;
}

/** The sites' dates as the server reads them: null for a site without an approval date yet. */
export function sentSiteDates(sites: readonly SiteDateDraft[]) {
  return sites.map((site) => ({ siteId: site.siteId, effectiveOn: site.effectiveOn || null }));
}

/**
 * The amendment's number and, per site of the study, the date its ethics approval takes effect
 * (optional: a site approves later). The new-amendment dialog and a draft's page use the same fields.
 */
export function NumberAndSiteDates({
  number,
  onNumber,
  sites,
  onDate,
  problems,
}: {
  number: string;
  onNumber: (number: string) => void;
  sites: readonly SiteDateDraft[];
  onDate: (siteId: number, effectiveOn: string) => void;
  problems: FieldProblems | null;
}) {
  const { t } = useTranslation('amendments');
  return (
    <>
      <TextField
        label={t('fields.number')}
        value={number}
        maxLength={AMENDMENT_NUMBER_MAX}
        autoComplete="off"
        hint={t('fields.numberHint')}
        error={problems?.number}
        onChange={(event) => onNumber(event.target.value)}
      />
      <fieldset className={styles.siteDates}>
        <legend className={styles.legend}>{t('fields.siteDates')}</legend>
        {sites.length === 0 ? <p className={styles.hint}>{t('fields.noSites')}</p> : null}
        {sites.map((site) => (
          <DateTextField
            key={site.siteId}
            label={site.label}
            value={site.effectiveOn}
            error={problems?.dates[site.siteId]}
            onChange={(event) => onDate(site.siteId, formatDateText(event.target.value))}
          />
        ))}
      </fieldset>
    </>
  );
}

/** The live version the amendment changes → the version it publishes (unknown while the draft is unreadable). */
export function Versions({ amendment }: { amendment: AmendmentSummary }) {
  const { t } = useTranslation('amendments');
  return (
    <span className={styles.versions}>
      {t('versions', { from: amendment.fromVersion, to: amendment.toVersion ?? t('versionUnknown') })}
    </span>
  );
}
