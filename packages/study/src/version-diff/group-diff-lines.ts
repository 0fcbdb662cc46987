import type { DiffLine } from './describe-diff.ts';

/** The parts of a definition a diff's lines are about, in the order `describeDiff` lists them. */
export const DIFF_LINE_GROUPS = ['study', 'visits', 'unscheduledVisit', 'codeLists', 'forms'] as const;
export type DiffLineGroup = (typeof DIFF_LINE_GROUPS)[number];

/**
 * A diff's lines under the part of the definition each is about (the first segment of its path), the
 * parts in the order of the definition and only those with a line: the headings the page and the PDF
 * print. `describeDiff` already lists the lines part by part, so each group keeps their order.
 */
export function groupDiffLines(lines: DiffLine[]): { group: DiffLineGroup; lines: DiffLine[] }[] {
  return DIFF_LINE_GROUPS.map((group) => ({
    group,
    lines: lines.filter((line) => line.path.split('/')[0] === group),
  })).filter((entry) => entry.lines.length > 0);
}
