import {
  type AmendmentImpact,
  type AmendmentImpactRow,
  type AmendmentResponse,
  IMPACT_PAGE_SIZES,
  type ImpactKind,
  impactKinds,
} from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '../../../components/button.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { FilterPanel, FilterText, listStyles, SiteFilterChoice } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, panelFieldsOf, useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { overviewUrl } from '../../../lib/subject-urls.ts';
import {
  amendmentImpactPdfPath,
  useAmendmentImpact,
  useAmendmentImpactRows,
  useRunAmendmentImpact,
} from '../api/amendments.ts';
import {
  EMPTY_IMPACT_PANEL,
  type ImpactFilters,
  type ImpactPageSize,
  impactListParams,
  impactValueText,
} from '../lib/impact-filters.ts';
import styles from './amendments.module.css';

/**
 * A draft's "Impact on stored data": the last impact analysis (when, by whom, how many subjects, and
 * whether the draft or declarations changed since), a run on request once the change set is ready,
 * the counts per kind in words, and a kind's rows. The kind, site, subject and page live in the
 * page's URL (`lib/impact-filters.ts`), so a reload keeps the rows open. `readOnly` (a published
 * amendment): the analysis it was published on, read only — no run, no PDF (the server draws it for a
 * draft), no out-of-date notice (the draft it read is the published version).
 */
export function ImpactSection({
  studyId,
  amendmentId,
  changeSet,
  readOnly = false,
}: {
  studyId: number;
  amendmentId: number;
  changeSet: AmendmentResponse['changeSet'];
  readOnly?: boolean;
}) {
  const { t, i18n } = useTranslation('amendments');
  const language = i18n.language.startsWith('en') ? 'en' : 'ko';
  const id = useId();
  const read = useAmendmentImpact(studyId, amendmentId);
  const run = useRunAmendmentImpact(studyId, amendmentId);
  const [runError, setRunError] = useState<string | null>(null);
  // The server refuses a run (409 amendment_not_ready) unless the change set is ready: say why first.
  const ready = changeSet?.ready === true;

  async function runAnalysis() {
    setRunError(null);
    try {
      await run.mutateAsync(undefined);
    } catch (error) {
      setRunError(errorText(error));
    }
  }

  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <div className={styles.impactHeader}>
        <h2 id={`${id}-title`} className={styles.sectionTitle}>
          {t('impact.title')}
        </h2>
        {readOnly ? null : (
          <div className={styles.impactActions}>
            <a
              className={buttonClassName({ variant: 'secondary' })}
              href={amendmentImpactPdfPath(studyId, amendmentId, language)}
              download
            >
              {t('impact.pdf')}
            </a>
            <Button
              disabled={!ready || run.isPending}
              aria-busy={run.isPending}
              aria-describedby={ready ? undefined : `${id}-why`}
              onClick={() => void runAnalysis()}
            >
              {run.isPending ? t('impact.running') : t('impact.run')}
            </Button>
          </div>
        )}
      </div>
      <p className={styles.hint}>{readOnly ? t('impact.publishedIntro') : t('impact.intro')}</p>
      {ready || readOnly ? null : (
        <p id={`${id}-why`} className={styles.hint}>
          {changeSet ? t('impact.notReady') : t('impact.noChangeSet')}
        </p>
      )}
      <FormAlert message={runError} className={styles.error} />
      {read.isPending ? (
        <p className={styles.hint} role="status">
          {t('page.loading')}
        </p>
      ) : read.isError ? (
        <div role="alert" className={styles.impactState}>
          <p className={styles.error}>{errorText(read.error)}</p>
          <Button variant="secondary" size="sm" onClick={() => void read.refetch()}>
            {t('page.retry')}
          </Button>
        </div>
      ) : read.data.impact === null ? (
        <p className={styles.impactState}>{t('impact.none')}</p>
      ) : (
        <ImpactResult
          studyId={studyId}
          amendmentId={amendmentId}
          impact={read.data.impact}
          readOnly={readOnly}
        />
      )}
    </section>
  );
}

/** A stored analysis: its summary, the counts per kind, and the chosen kind's rows (stale notice unless read-only). */
function ImpactResult({
  studyId,
  amendmentId,
  impact,
  readOnly,
}: {
  studyId: number;
  amendmentId: number;
  impact: AmendmentImpact;
  readOnly: boolean;
}) {
  const { t } = useTranslation('amendments');
  const { values: filters, apply } = useListState(impactListParams);
  return (
    <>
      <p className={styles.hint}>
        {t('impact.computed', {
          name: impact.computedBy,
          at: formatDateTimeKst(impact.computedAt),
          count: impact.subjects,
        })}
      </p>
      {impact.current || readOnly ? null : (
        <div className={styles.notReady} role="status">
          <p className={styles.readiness}>{t('impact.stale')}</p>
          <p>{t('impact.staleHint')}</p>
        </div>
      )}
      <ul className={styles.kindGrid} aria-label={t('impact.countsLabel')}>
        {impactKinds.map((kind) => (
          <li key={kind}>
            <KindCount
              kind={kind}
              counts={impact.byKind[kind] ?? { rows: 0, subjects: 0 }}
              chosen={filters.kind === kind}
              // A second click on the open kind folds its rows away.
              onChoose={() => apply({ kind: filters.kind === kind ? '' : kind })}
            />
          </li>
        ))}
      </ul>
      {filters.kind ? (
        <ImpactRows
          studyId={studyId}
          amendmentId={amendmentId}
          kind={filters.kind}
          filters={filters}
          apply={apply}
        />
      ) : null}
    </>
  );
}

/** One kind's counts in words; a kind with rows is a button that opens them, one without is muted. */
function KindCount({
  kind,
  counts,
  chosen,
  onChoose,
}: {
  kind: ImpactKind;
  counts: { rows: number; subjects: number };
  chosen: boolean;
  onChoose: () => void;
}) {
  const { t } = useTranslation('amendments');
  const content = (
    <>
      <span className={styles.kindName}>{t(`impact.kinds.${kind}.name`)}</span>
      <span className={styles.kindCount}>
        {t('impact.counts', { rows: counts.rows, subjects: counts.subjects })}
      </span>
      <span className={styles.kindHelp}>{t(`impact.kinds.${kind}.help`)}</span>
    </>
  );
  if (counts.rows === 0)
    return (
      <div className={`${styles.kind} ${styles.kindNone}`} data-kind={kind}>
        {content}
      </div>
    );
  return (
    <button type="button" className={styles.kind} data-kind={kind} aria-pressed={chosen} onClick={onChoose}>
      {content}
    </button>
  );
}

/** The chosen kind's rows in the shared table, filtered by site and subject, paged. */
function ImpactRows({
  studyId,
  amendmentId,
  kind,
  filters,
  apply,
}: {
  studyId: number;
  amendmentId: number;
  kind: ImpactKind;
  filters: ImpactFilters;
  apply: (change: Partial<ImpactFilters>) => void;
}) {
  const { t } = useTranslation('amendments');
  const me = useMe();
  const sites = me.data?.memberships.find((membership) => membership.studyId === studyId)?.sites ?? [];
  const list = useAmendmentImpactRows(studyId, amendmentId, filters);
  const kindName = t(`impact.kinds.${kind}.name`);
  /** A name with its key beside it, small (the designer's keys); "—" for none. */
  const named = (name: string | null, key: string | null) =>
    key === null ? (
      '—'
    ) : (
      <span>
        {name ?? key} {name !== null && name !== key ? <code className={styles.element}>{key}</code> : null}
      </span>
    );
  /** Form statuses and holds in words; other values as they were stored. */
  const valueWords = (rowKind: ImpactKind, value: unknown) => {
    if ((rowKind === 'formIncomplete' || rowKind === 'formComplete') && typeof value === 'string')
      return t(`impact.formStatus.${value}`, { defaultValue: value });
    if (rowKind === 'heldFormTouched' && isHold(value))
      return t('impact.hold', {
        kind: t(`impact.holdKind.${value.kind}`, { defaultValue: value.kind }),
        level: t(`impact.holdLevel.${value.level}`, { defaultValue: value.level }),
      });
    return impactValueText(value);
  };

  const columns: DataTableColumn<AmendmentImpactRow>[] = [
    {
      id: 'subject',
      header: t('impact.columns.subject'),
      hideable: false,
      cell: (row) => (
        <Link
          className={listStyles.rowLink}
          to={overviewUrl(studyId, { id: row.subjectPk, subjectId: row.subjectId }, null)}
        >
          {row.subjectId}
        </Link>
      ),
    },
    { id: 'site', header: t('impact.columns.site'), cell: (row) => row.site },
    { id: 'visit', header: t('impact.columns.visit'), cell: (row) => named(row.visit, row.visitKey) },
    { id: 'form', header: t('impact.columns.form'), wrap: true, cell: (row) => named(row.form, row.formKey) },
    { id: 'item', header: t('impact.columns.item'), wrap: true, cell: (row) => named(row.item, row.itemKey) },
    {
      id: 'change',
      header: t('impact.columns.change'),
      hideable: false,
      wrap: true,
      cell: (row) => (
        <span className={styles.impactChange}>
          <span>{valueWords(row.kind, row.before)}</span>
          <span>→</span>
          <span>{valueWords(row.kind, row.after)}</span>
        </span>
      ),
    },
  ];

  return (
    <div className={styles.block}>
      <h3 className={styles.blockTitle}>{t('impact.rowsTitle', { kind: kindName })}</h3>
      <ImpactFilterPanel
        key={filterPanelKey(filters, EMPTY_IMPACT_PANEL)}
        filters={filters}
        apply={apply}
        sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
      />
      <PagedListTable<AmendmentImpactRow, string, ImpactPageSize>
        id="amendment-impact"
        label={t('impact.rowsTitle', { kind: kindName })}
        columns={columns}
        fit
        rows={list.data?.rows}
        rowKey={(row) =>
          [
            row.subjectPk,
            row.visitKey,
            row.formKey,
            row.itemKey,
            JSON.stringify(row.before),
            JSON.stringify(row.after),
          ].join('|')
        }
        query={list}
        loadFailed={t('impact.rowsLoadFailed')}
        emptyMessage={t('impact.noRows')}
        count={(total) => t('impact.rowCount', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: IMPACT_PAGE_SIZES, onChange: (size) => apply({ size }) }}
      />
    </div>
  );
}

/** The site and subject filters of the rows (the shared panel), applied with its button. */
function ImpactFilterPanel({
  filters,
  apply,
  sites,
}: {
  filters: ImpactFilters;
  apply: (change: Partial<ImpactFilters>) => void;
  sites: { id: number; label: string }[];
}) {
  const { t } = useTranslation('amendments');
  const [draft, setDraft] = useState(() => panelFieldsOf(filters, EMPTY_IMPACT_PANEL));
  return (
    <FilterPanel
      onSubmit={() => apply({ ...draft, subject: draft.subject.trim() })}
      onReset={() => {
        setDraft(EMPTY_IMPACT_PANEL);
        apply(EMPTY_IMPACT_PANEL);
      }}
    >
      <SiteFilterChoice
        label={t('impact.columns.site')}
        allSitesLabel={t('impact.allSites')}
        sites={sites}
        value={draft.siteId}
        onChange={(siteId) => setDraft({ ...draft, siteId })}
      />
      <FilterText
        label={t('impact.subjectSearch')}
        type="search"
        value={draft.subject}
        onChange={(subject) => setDraft({ ...draft, subject })}
      />
    </FilterPanel>
  );
}

function isHold(value: unknown): value is { kind: string; level: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { level?: unknown }).level === 'string'
  );
}
