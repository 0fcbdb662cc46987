import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { FilterPanel, ListLoadError, ListPage, SiteFilterChoice } from '../../../components/list-page.tsx';
import { defineListParams, param, useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useSummaryFigures } from '../api/summary-api.ts';
import { HealingSection } from './healing-section.tsx';
import { KeyMeasuresSection } from './key-measures-section.tsx';
import { StatusSection } from './status-section.tsx';
import styles from './summary.module.css';
import { VisitMatrixSection } from './visit-matrix-section.tsx';

/**
 * `/summary/:studyId` (issue 17 item 2; CRA menu): the study at a glance over the reader's sites —
 * subjects by status and site, the visit completion matrix, the outcome and the key measures by visit —,
 * each a chart with the table of the same numbers; the site chosen lives in the URL (`siteId`).
 * Whether the figures are split by randomization group is the server's decision: the page shows
 * the split when the answer has it.
 */
export function SummaryPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Summary studyId={studyId} />;
}

/** The summary's one filter in the URL: the site. */
const summaryParams = defineListParams<{ siteId: number | null }>({ siteId: param.id() });

function Summary({ studyId }: { studyId: number }) {
  const { t } = useTranslation('summary');
  const {
    values: { siteId },
    apply,
  } = useListState(summaryParams);
  const figures = useSummaryFigures(studyId, siteId);
  const me = useMe();
  const sites = me.data?.memberships.find((m) => m.studyId === studyId)?.sites ?? [];
  const data = figures.data;

  return (
    <ListPage title={t('title')}>
      <SiteFilter
        key={siteId ?? 'all'}
        siteId={siteId}
        sites={sites.map((site) => ({ id: site.id, label: `${site.code} ${site.name}` }))}
        onApply={(next) => apply({ siteId: next })}
      />

      {figures.isError && !data ? (
        <ListLoadError
          title={t('loadFailed')}
          detail={figures.error.message}
          retryLabel={t('retry')}
          onRetry={() => void figures.refetch()}
        />
      ) : !data ? (
        <p className={styles.loading} role="status">
          {t('loading')}
        </p>
      ) : (
        <div className={styles.sections} aria-busy={figures.isFetching}>
          <StatusSection data={data} />
          <VisitMatrixSection data={data} />
          {/* A study whose design has no healing or key measures role has no such part (issue 45). */}
          {data.healing.visits.length > 0 && <HealingSection data={data} />}
          {data.keyMeasures.visits.length > 0 && <KeyMeasuresSection data={data} />}
        </div>
      )}
    </ListPage>
  );
}

function SiteFilter({
  siteId,
  sites,
  onApply,
}: {
  siteId: number | null;
  sites: { id: number; label: string }[];
  onApply: (siteId: number | null) => void;
}) {
  const { t } = useTranslation('summary');
  const [chosen, setChosen] = useState(siteId);
  return (
    <FilterPanel
      onSubmit={() => onApply(chosen)}
      onReset={() => {
        setChosen(null);
        onApply(null);
      }}
    >
      <SiteFilterChoice
        label={t('site')}
        allSitesLabel={t('allSites')}
        sites={sites}
        value={chosen}
        onChange={setChosen}
      />
    </FilterPanel>
  );
}
