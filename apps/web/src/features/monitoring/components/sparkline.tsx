import styles from './monitoring.module.css';

const WIDTH = 96;
const HEIGHT = 24;

/**
 * A small trend line of one indicator over the runs kept (oldest first), drawn as SVG: no chart
 * library for a dozen points per row. Points without a value break the line.
 */
export function Sparkline({
  points,
  label,
}: {
  points: readonly { day: string; value: number | null }[];
  label: string;
}) {
  const values = points.map((point) => point.value).filter((value): value is number => value !== null);
  if (values.length < 2) return <span className={styles.muted}>—</span>;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (index: number) =>
    points.length === 1 ? WIDTH / 2 : (index / (points.length - 1)) * (WIDTH - 4) + 2;
  const y = (value: number) => HEIGHT - 3 - ((value - low) / span) * (HEIGHT - 6);
  // One path of segments: a null starts a new one.
  let path = '';
  let drawing = false;
  points.forEach((point, index) => {
    if (point.value === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(index).toFixed(1)} ${y(point.value).toFixed(1)}`;
    drawing = true;
  });
  const lastIndex = points.length - 1 - [...points].reverse().findIndex((point) => point.value !== null);
  const last = points[lastIndex]?.value ?? null;
  return (
    <svg
      className={styles.sparkline}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <path d={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
      {last === null ? null : <circle cx={x(lastIndex)} cy={y(last)} r="2.2" fill="currentColor" />}
    </svg>
  );
}
