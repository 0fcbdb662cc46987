import {
  AUDIOGRAM_AXIS_FREQUENCIES,
  type AudiogramConduction,
  type AudiogramLayout,
  audiogramBandSpan,
  audiogramDbTicks,
  audiogramEarOf,
  audiogramPoints,
  audiogramXFraction,
  audiogramYFraction,
  type Language,
} from '@cdms/study';
import { useId, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubjectStore } from '../../../components/crf-form/subject-store.ts';
import styles from './audiogram.module.css';

/**
 * The PTA form's thresholds as a standard audiogram (issue 19 item 3), drawn from the values as they
 * are typed: frequency on a logarithmic axis (250–8000 Hz), hearing level in dB HL increasing
 * downwards, the study's hearing-severity bands shaded, air conduction joined by a line and bone
 * conduction as unjoined brackets, in the ear convention — right ear red O and <, left ear blue X and
 * > — for the treated ear (the `audiogram` role's `treatedEar`). The numbers in the form stay the record; the
 * chart's text alternative lists them.
 */

// The band names stand to the right of the plot, clear of the marks.
const PLOT = { left: 64, right: 484, top: 28, bottom: 352 };
const WIDTH = 620;
const HEIGHT = 384;

type Ear = 'R' | 'L' | null;
export type Thresholds = Record<AudiogramConduction, Map<number, number>>;

// The axes are the study package's, which the casebook PDF draws with too.
const xOf = (hz: number) => PLOT.left + audiogramXFraction(hz) * (PLOT.right - PLOT.left);
const yOf = (db: number) => PLOT.top + audiogramYFraction(db) * (PLOT.bottom - PLOT.top);
const frequencyLabel = (hz: number) => (hz >= 1000 ? `${hz / 1000}k` : String(hz));

/** Reads the thresholds of the visit's PTA form from the store (numbers only; a section marked not done has none). */
function readThresholds(store: SubjectStore, visitKey: string, layout: AudiogramLayout): string {
  const values: Record<string, number> = {};
  const points = audiogramPoints(layout, (itemKey) => store.getValue(visitKey, layout.form, { itemKey }));
  for (const conduction of ['air', 'bone'] as const) {
    for (const point of points[conduction]) values[`${conduction}${point.hz}`] = point.db;
  }
  // A string snapshot: equal values give an equal snapshot, so typing elsewhere does not redraw.
  return JSON.stringify(values);
}

function parseThresholds(snapshot: string): Thresholds {
  const parsed = JSON.parse(snapshot) as Record<string, number>;
  const thresholds: Thresholds = { air: new Map(), bone: new Map() };
  for (const [key, value] of Object.entries(parsed)) {
    const match = /^(air|bone)(\d+)$/.exec(key);
    if (match) thresholds[match[1] as AudiogramConduction].set(Number(match[2]), value);
  }
  return thresholds;
}

/** The PTA form's audiogram, live from the store. */
export function PtaAudiogram({
  store,
  visitKey,
  layout,
}: {
  store: SubjectStore;
  visitKey: string;
  layout: AudiogramLayout;
}) {
  const read = () => readThresholds(store, visitKey, layout);
  const snapshot = useSyncExternalStore(store.subscribe, read, read);
  const readEar = () =>
    layout.treatedEar
      ? store.getValue(layout.treatedEar.visit, layout.treatedEar.form, { itemKey: layout.treatedEar.item })
      : undefined;
  const earValue = useSyncExternalStore(store.subscribe, readEar, readEar);
  const ear: Ear = audiogramEarOf(layout, earValue);
  const thresholds = useMemo(() => parseThresholds(snapshot), [snapshot]);
  return <AudiogramChart layout={layout} series={[{ key: visitKey, label: null, thresholds }]} ear={ear} />;
}

export interface AudiogramSeries {
  key: string;
  /** Shown in the legend when several series are drawn (the visit). */
  label: string | null;
  thresholds: Thresholds;
}

/** One audiogram (pure: the thresholds given); exported for the tests. */
export function AudiogramChart({
  layout,
  series,
  ear,
}: {
  layout: AudiogramLayout;
  /** The first solid, a second dashed with hollow marks (an earlier and a later visit overlaid). */
  series: AudiogramSeries[];
  ear: Ear;
}) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const titleId = useId();
  const descriptionId = useId();
  const earClass = ear === 'L' ? styles.left : ear === 'R' ? styles.right : styles.unknownEar;
  const airMark = markSymbol(ear, 'air');
  const boneMark = markSymbol(ear, 'bone');
  const earName = ear ? t(`audiogram.ear.${ear}`) : t('audiogram.ear.unknown');

  const pointsOf = (thresholds: Thresholds, conduction: AudiogramConduction) =>
    layout.frequencies
      .filter((hz) => thresholds[conduction].has(hz))
      .map((hz) => ({ hz, db: thresholds[conduction].get(hz) as number }));
  const drawn = series.map((entry, index) => ({
    ...entry,
    dashed: index > 0,
    air: pointsOf(entry.thresholds, 'air'),
    bone: pointsOf(entry.thresholds, 'bone'),
  }));
  const describe = (points: { hz: number; db: number }[]) =>
    points.length === 0
      ? t('audiogram.none')
      : points.map((point) => t('audiogram.point', { hz: point.hz, db: point.db })).join(', ');
  const description = drawn
    .map(
      (entry) =>
        (entry.label ? `${entry.label}: ` : '') +
        t('audiogram.description', { air: describe(entry.air), bone: describe(entry.bone) }),
    )
    .join(' ');

  return (
    <figure className={styles.figure} data-testid="pta-audiogram">
      <svg
        className={styles.chart}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descriptionId}`}
      >
        <title id={titleId}>{t('audiogram.title', { ear: earName })}</title>
        <desc id={descriptionId}>{description}</desc>
        {layout.bands.map((band, index) => {
          const span = audiogramBandSpan(band);
          const top = PLOT.top + span.top * (PLOT.bottom - PLOT.top);
          const bottom = PLOT.top + span.bottom * (PLOT.bottom - PLOT.top);
          return (
            <g key={band.code}>
              <rect
                x={PLOT.left}
                y={top}
                width={PLOT.right - PLOT.left}
                height={bottom - top}
                className={styles.band}
                data-band={index}
              />
              <text x={PLOT.right + 8} y={(top + bottom) / 2 + 4} className={styles.bandLabel}>
                {band.label[language].replace(/\s*\(.*\)$/, '')}
              </text>
            </g>
          );
        })}
        {audiogramDbTicks().map((db) => (
          <g key={db}>
            <line x1={PLOT.left} x2={PLOT.right} y1={yOf(db)} y2={yOf(db)} className={styles.grid} />
            <text x={PLOT.left - 8} y={yOf(db) + 4} className={styles.tick} textAnchor="end">
              {db}
            </text>
          </g>
        ))}
        {AUDIOGRAM_AXIS_FREQUENCIES.map((hz) => (
          <g key={hz}>
            <line x1={xOf(hz)} x2={xOf(hz)} y1={PLOT.top} y2={PLOT.bottom} className={styles.grid} />
            <text x={xOf(hz)} y={PLOT.top - 10} className={styles.tick} textAnchor="middle">
              {frequencyLabel(hz)}
            </text>
          </g>
        ))}
        <text
          x={(PLOT.left + PLOT.right) / 2}
          y={HEIGHT - 8}
          className={styles.axisTitle}
          textAnchor="middle"
        >
          {t('audiogram.frequencyAxis')}
        </text>
        <text
          x={16}
          y={(PLOT.top + PLOT.bottom) / 2}
          className={styles.axisTitle}
          textAnchor="middle"
          transform={`rotate(-90 16 ${(PLOT.top + PLOT.bottom) / 2})`}
        >
          {t('audiogram.levelAxis')}
        </text>
        {drawn.map((entry) => (
          <g key={entry.key} className={earClass} data-series={entry.key}>
            {entry.air.length > 1 ? (
              <polyline
                className={entry.dashed ? `${styles.airLine} ${styles.dashed}` : styles.airLine}
                points={entry.air.map((point) => `${xOf(point.hz)},${yOf(point.db)}`).join(' ')}
              />
            ) : null}
            {(['air', 'bone'] as const).flatMap((conduction) =>
              entry[conduction].map((point) => (
                <ThresholdMark
                  key={`${conduction}-${point.hz}`}
                  ear={ear}
                  conduction={conduction}
                  point={point}
                  later={entry.dashed}
                />
              )),
            )}
          </g>
        ))}
      </svg>
      <figcaption className={styles.caption}>
        <span className={earClass}>
          <span className={styles.legendMark} aria-hidden="true">
            {airMark}
          </span>
          {t('audiogram.airLegend')}
        </span>
        <span className={earClass}>
          <span className={styles.legendMark} aria-hidden="true">
            {boneMark}
          </span>
          {t('audiogram.boneLegend')}
        </span>
        <span>{t('audiogram.earLegend', { ear: earName })}</span>
        {drawn.length > 1
          ? drawn.map((entry) => (
              <span key={entry.key} className={earClass}>
                <svg className={styles.legendLine} viewBox="0 0 28 8" aria-hidden="true">
                  <line
                    x1="0"
                    x2="28"
                    y1="4"
                    y2="4"
                    className={entry.dashed ? `${styles.airLine} ${styles.dashed}` : styles.airLine}
                  />
                </svg>
                {entry.label}
              </span>
            ))
          : null}
      </figcaption>
    </figure>
  );
}

/** The ear convention's symbols: left ear X (air) and > (bone), right ear O and <. */
function markSymbol(ear: Ear, conduction: AudiogramConduction): string {
  if (conduction === 'air') return ear === 'L' ? 'X' : 'O';
  return ear === 'L' ? '>' : '<';
}

/** One threshold's mark: the ear's symbol for its conduction, hollow in a later visit's series. */
function ThresholdMark({
  ear,
  conduction,
  point,
  later,
}: {
  ear: Ear;
  conduction: AudiogramConduction;
  point: { hz: number; db: number };
  later: boolean;
}) {
  // Bone marks sit beside the frequency line, on the ear's side, as audiograms draw them.
  const beside = conduction === 'bone' ? (ear === 'L' ? 12 : -12) : 0;
  return (
    <text
      x={xOf(point.hz) + beside}
      y={yOf(point.db) + 6}
      className={later ? `${styles.mark} ${styles.later}` : styles.mark}
      textAnchor="middle"
      data-mark={conduction}
      data-hz={point.hz}
      data-db={point.db}
    >
      {markSymbol(ear, conduction)}
    </text>
  );
}
