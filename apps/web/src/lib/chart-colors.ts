/**
 * The colours of a chart's series whose number and names come from a study's definition (its key
 * measures, events of interest, outcome codes): the n-th series takes the n-th colour, repeating past
 * the last. One palette, so no page names a study's codes to colour them.
 */
const SERIES_COLORS = [
  '#2563eb',
  '#f59e0b',
  '#16a34a',
  '#dc2626',
  '#9333ea',
  '#0ea5e9',
  '#db2777',
  '#64748b',
];

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] as string;
}
