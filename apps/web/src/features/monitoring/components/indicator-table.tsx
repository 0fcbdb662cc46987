import {
  type IndicatorValue,
  type KriKey,
  kriKeys,
  type MonitoringResponse,
  type ToleranceLimit,
} from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { formatCount, formatIndicator, lightSymbol } from '../lib/indicators.ts';
import styles from './monitoring.module.css';
import { Sparkline } from './sparkline.tsx';
import { TrafficLightMark } from './traffic-light.tsx';

/** One row of the table: a site, or (in the footer) every site in the reader's scope. */
interface IndicatorRow {
  id: string;
  label: string;
  detail: string;
  subjects: number | null;
  values: ReadonlyMap<KriKey, IndicatorValue>;
  trend: readonly { day: string; value: number | null }[] | null;
}

/**
 * The key risk indicators, site × indicator (issue 50 item 1): each cell the value, its traffic light
 * (shape and colour, the light's name read out) and what it is made of (numerator / denominator); the
 * study-wide value in the footer; a small trend line per site for the indicator chosen above.
 */
export function IndicatorTable({ data }: { data: MonitoringResponse }) {
  const { t } = useTranslation('monitoring');
  const trendId = useId();
  const [trendKey, setTrendKey] = useState<KriKey>('queryRate');
  const limits = new Map<KriKey, ToleranceLimit>(data.limits.map((limit) => [limit.key, limit]));

  const rows: IndicatorRow[] = data.sites.map((site) => ({
    id: String(site.site.id),
    label: site.site.code,
    detail: site.site.name,
    subjects: site.subjects,
    values: new Map(site.indicators.map((indicator) => [indicator.key, indicator])),
    trend: site.trends.find((trend) => trend.key === trendKey)?.points ?? [],
  }));
  // The study-wide value is the same in every site's answer: take the first one that has it. Its
  // numerator and denominator are not summed here (a median is not a sum): the footer shows the value.
  const studyValues = new Map<KriKey, IndicatorValue>();
  for (const key of kriKeys) {
    const first = data.sites.flatMap((site) => site.indicators).find((indicator) => indicator.key === key);
    if (first) studyValues.set(key, { ...first, value: first.studyValue, light: 'none' });
  }
  const footer: IndicatorRow = {
    id: 'study',
    label: t('indicators.study'),
    detail: '',
    subjects: data.sites.reduce((sum, site) => sum + site.subjects, 0),
    values: studyValues,
    trend: null,
  };

  const indicatorColumns: DataTableColumn<IndicatorRow>[] = kriKeys.map((key) => {
    const limit = limits.get(key);
    return {
      id: key,
      header: t(`kri.${key}.name`),
      headerContent: (
        <span className={styles.kriHeader} title={`${t(`kri.${key}.description`)} (${t(`kri.${key}.unit`)})`}>
          <span>{t(`kri.${key}.short`)}</span>
          {limit ? (
            <span className={styles.kriLimits}>
              {limit.direction === 'high' ? '≥' : '≤'} {lightSymbol.amber} {limit.warning} {lightSymbol.red}{' '}
              {limit.limit}
            </span>
          ) : null}
        </span>
      ),
      // Not sortable: a sortable header shows only its name, and this one shows the limits too.
      numeric: true,
      cell: (row) => (
        <IndicatorCell indicatorKey={key} value={row.values.get(key)} footer={row.id === 'study'} />
      ),
    };
  });

  const columns: DataTableColumn<IndicatorRow>[] = [
    {
      id: 'site',
      header: t('indicators.site'),
      hideable: false,
      rowHeader: true,
      sortValue: (row) => row.label,
      cell: (row) => (
        <span className={styles.siteCell}>
          <strong>{row.label}</strong>
          {row.detail ? <span className={styles.muted}>{row.detail}</span> : null}
        </span>
      ),
    },
    {
      id: 'subjects',
      header: t('indicators.subjects'),
      numeric: true,
      sortValue: (row) => row.subjects ?? 0,
      cell: (row) => row.subjects ?? '',
    },
    // The trend beside the site, so the chosen indicator's line is in view with the choice above it.
    {
      id: 'trend',
      header: `${t('indicators.trend')} · ${t(`kri.${trendKey}.short`)}`,
      cell: (row) =>
        row.trend === null ? null : (
          <Sparkline
            points={row.trend}
            label={t('indicators.trendLabel', {
              indicator: t(`kri.${trendKey}.name`),
              site: row.label,
              points: row.trend
                .map((point) => `${point.day} ${formatIndicator(trendKey, point.value)}`)
                .join(', '),
            })}
          />
        ),
    },
    ...indicatorColumns,
  ];

  return (
    <DataTable<IndicatorRow>
      id="monitoring-indicators"
      label={t('indicators.caption')}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      footerRows={rows.length > 0 ? [footer] : []}
      sorting={{ mode: 'client' }}
      emptyMessage={t('indicators.noSites')}
      summary={<LightLegend />}
      actions={
        <div className={listStyles.field}>
          <label className={listStyles.label} htmlFor={trendId}>
            {t('indicators.trendOf')}
          </label>
          <select
            id={trendId}
            className={listStyles.select}
            value={trendKey}
            onChange={(event) => setTrendKey(event.target.value as KriKey)}
          >
            {kriKeys.map((key) => (
              <option key={key} value={key}>
                {t(`kri.${key}.name`)}
              </option>
            ))}
          </select>
        </div>
      }
    />
  );
}

function IndicatorCell({
  indicatorKey,
  value,
  footer,
}: {
  indicatorKey: KriKey;
  value: IndicatorValue | undefined;
  footer: boolean;
}) {
  const { t } = useTranslation('monitoring');
  if (!value) return <span className={styles.muted}>—</span>;
  const text = formatIndicator(indicatorKey, value.value);
  if (footer) return <strong className={styles.kriValue}>{text}</strong>;
  const ratio = t('indicators.ratio', {
    numerator: formatCount(value.numerator),
    denominator: formatCount(value.denominator),
  });
  return (
    <span
      className={styles.kriCell}
      data-light={value.light}
      title={`${t(`kri.${indicatorKey}.name`)}: ${text} ${t(`kri.${indicatorKey}.unit`)} · ${ratio}`}
    >
      <span className={styles.kriValue}>
        <TrafficLightMark light={value.light} />
        <span>{text}</span>
      </span>
      <span className={styles.ratio}>{ratio}</span>
    </span>
  );
}

/** What the shapes mean, once above the table. */
function LightLegend() {
  const { t } = useTranslation('monitoring');
  return (
    <span className={styles.legend}>
      <span className={styles.muted}>{t('indicators.legend')}:</span>
      {(['green', 'amber', 'red', 'none'] as const).map((light) => (
        <TrafficLightMark key={light} light={light} withText />
      ))}
    </span>
  );
}
