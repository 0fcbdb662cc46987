import {
  type DefinitionComparison,
  type DefinitionVersionSummary,
  definitionComparisonPath,
  diffLineKinds,
} from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { DefinitionDiffTable, DiffKind } from '../../../components/definition-diff-table.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { PageState, StudyAbilityPage } from '../../../components/study-ability-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useDefinitionComparison, useDefinitionVersions } from '../api/definition-versions.ts';
import styles from './design-versions.module.css';

/**
 * `/design/:studyId/versions`: what changed between any two versions of the study's definition
 * (issue 48 item 7), for its designers (the `study.design` ability): two version choices — the
 * previous and the newest at first, kept in the address (`?from=&to=`) —, both versions' date, size
 * and hash, the counts per kind, every change as a line marked added, removed, changed or moved (in
 * words and a sign, not by colour alone), and the same comparison as a PDF.
 */
export function DesignVersionsPage() {
  return (
    <StudyAbilityPage ability="study.design" namespace="designVersions">
      {(studyId) => <VersionChoice studyId={studyId} />}
    </StudyAbilityPage>
  );
}

/** The two versions compared: the address's when the study has them, else the previous and the newest. */
function VersionChoice({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('designVersions');
  const id = useId();
  const versions = useDefinitionVersions(studyId);
  const [search, setSearch] = useSearchParams();

  if (versions.isPending) return <PageState role="status">{t('page.loading')}</PageState>;
  if (versions.isError)
    return (
      <PageState role="alert">
        <p>{errorText(versions.error)}</p>
        <Button variant="secondary" onClick={() => void versions.refetch()}>
          {t('page.retry')}
        </Button>
      </PageState>
    );
  const list = versions.data.versions;
  const newest = list.at(-1);
  if (!newest) return <PageState>{t('page.noVersions')}</PageState>;
  const previous = list.at(-2) ?? newest;
  const known = (version: string | null) => list.find((candidate) => candidate.version === version);
  const from = known(search.get('from')) ?? previous;
  const to = known(search.get('to')) ?? newest;
  const lang = i18n.language === 'en' ? 'en' : 'ko';
  const choose = (which: 'from' | 'to', version: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('from', which === 'from' ? version : from.version);
        next.set('to', which === 'to' ? version : to.version);
        return next;
      },
      { replace: true },
    );
  const versionLabel = (version: DefinitionVersionSummary) =>
    t('choice.option', { version: version.version, date: formatDateTimeKst(version.createdAt) });

  return (
    <>
      <section className={`${listStyles.card} ${styles.choice}`} aria-labelledby={`${id}-choice`}>
        <h2 id={`${id}-choice`} className={styles.sectionTitle}>
          {t('choice.title')}
        </h2>
        {list.length === 1 && <p className={styles.hint}>{t('choice.onlyOne')}</p>}
        <div className={styles.versions}>
          {(['from', 'to'] as const).map((which) => {
            const chosen = which === 'from' ? from : to;
            return (
              <div key={which} className={styles.version}>
                <label className={styles.field}>
                  <span className={listStyles.label}>{t(`choice.${which}`)}</span>
                  <select
                    className={listStyles.select}
                    value={chosen.version}
                    onChange={(event) => choose(which, event.target.value)}
                  >
                    {list.map((version) => (
                      <option key={version.version} value={version.version}>
                        {versionLabel(version)}
                      </option>
                    ))}
                  </select>
                </label>
                <VersionFacts version={chosen} />
              </div>
            );
          })}
        </div>
      </section>
      <Comparison studyId={studyId} query={{ from: from.version, to: to.version, lang }} />
    </>
  );
}

/** A version's date, size and content hash under its choice. */
function VersionFacts({ version }: { version: DefinitionVersionSummary }) {
  const { t } = useTranslation('designVersions');
  return (
    <dl className={styles.facts}>
      <dt>{t('facts.written')}</dt>
      <dd>{formatDateTimeKst(version.createdAt)}</dd>
      <dt>{t('facts.size')}</dt>
      <dd>{t('facts.counts', version.counts)}</dd>
      <dt>{t('facts.hash')}</dt>
      <dd>
        <code className={styles.hash} title={version.contentHash}>
          {version.contentHash.slice(0, 16)}
        </code>
      </dd>
    </dl>
  );
}

type SummaryRow = {
  part: keyof DefinitionComparison['summary'];
} & DefinitionComparison['summary'][keyof DefinitionComparison['summary']];

const SUMMARY_PARTS = ['visits', 'forms', 'items', 'codeLists', 'checks'] as const;

/** The counts per kind and the lines of one comparison, with its PDF. */
function Comparison({
  studyId,
  query,
}: {
  studyId: number;
  query: { from: string; to: string; lang: 'ko' | 'en' };
}) {
  const { t } = useTranslation('designVersions');
  const comparison = useDefinitionComparison(studyId, query);
  const data = comparison.data;
  const error = comparison.isError
    ? {
        title: t('lines.loadError'),
        detail: errorText(comparison.error),
        onRetry: () => void comparison.refetch(),
      }
    : null;

  const summaryColumns: DataTableColumn<SummaryRow>[] = [
    {
      id: 'part',
      header: t('summary.part'),
      cell: (row) => t(`parts.${row.part}`),
      rowHeader: true,
      hideable: false,
    },
    ...diffLineKinds.map(
      (kind): DataTableColumn<SummaryRow> => ({
        id: kind,
        header: t(`kinds.${kind}`),
        headerContent: <DiffKind kind={kind} />,
        cell: (row) => row[kind],
        numeric: true,
        hideable: false,
      }),
    ),
  ];
  // Every column is needed to read a line or a count: no columns menu.
  const summaryRows: SummaryRow[] | undefined =
    data && SUMMARY_PARTS.map((part) => ({ part, ...data.summary[part] }));

  return (
    <>
      {/* Plain blocks, not regions: each table's frame is already a region named as the heading. */}
      <div className={styles.block}>
        <div className={styles.blockHeader}>
          <h2 className={styles.sectionTitle}>{t('summary.title', { from: query.from, to: query.to })}</h2>
          <a
            className={buttonClassName({ variant: 'secondary' })}
            href={definitionComparisonPath(studyId, query, 'pdf')}
            download
          >
            {t('download')}
          </a>
        </div>
        <div className={styles.summaryTable}>
          <DataTable
            id="design-versions-summary"
            label={t('summary.title', { from: query.from, to: query.to })}
            columns={summaryColumns}
            rows={summaryRows}
            rowKey={(row) => row.part}
            busy={comparison.isFetching}
            error={error}
            loadingMessage={t('page.loading')}
            pager={null}
          />
        </div>
      </div>
      <div className={styles.block}>
        <h2 className={styles.sectionTitle}>{t('lines.title', { count: data?.lines.length ?? 0 })}</h2>
        <DefinitionDiffTable
          id="design-versions-lines"
          label={t('lines.title', { count: data?.lines.length ?? 0 })}
          lines={data?.lines}
          busy={comparison.isFetching}
          error={error}
          emptyMessage={t('lines.none')}
        />
      </div>
    </>
  );
}
