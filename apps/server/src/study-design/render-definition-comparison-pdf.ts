import {
  type DefinitionComparison,
  type DefinitionVersionSummary,
  koreaDateTimeWithZone,
} from '@cdms/contract';
import { type DiffLineGroup, type DiffLineKind, groupDiffLines } from '@cdms/study';
import { fill } from '../casebook/casebook-text.ts';
import {
  CONTENT_WIDTH,
  FONT,
  openPdfPage,
  PAGE,
  PAGE_OF_WORDS,
  PDF_COLOR,
  writeBandHeading,
  writePageFooters,
  writeTableRow,
} from '../casebook/pdf-page.ts';
import type { Text } from '../http/language.ts';
import type { ComparedStudy } from './compare-definition-versions.ts';

/**
 * The comparison of two versions of a study's definition as a PDF (A4, issue 48 item 7): the title,
 * the study, both versions with their dates and content hashes, the counts per kind, then the lines
 * of `describeDiff` under the part of the definition they are about, each marked added, removed,
 * changed or moved in words (a print in black and white still tells them apart); "page n of m" on
 * every page. Pages are buffered to number them: a comparison is a few pages, a whole redesign a few
 * dozen.
 */

const WORDS = {
  title: { ko: '시험 정의 버전 비교', en: 'Study definition: version comparison' },
  study: { ko: '시험', en: 'Study' },
  from: { ko: '이전 버전', en: 'From version' },
  to: { ko: '새 버전', en: 'To version' },
  written: { ko: '작성', en: 'written' },
  hash: { ko: '내용 해시(SHA-256)', en: 'content hash (SHA-256)' },
  size: {
    ko: '방문 {visits} · 양식 {forms} · 항목 {items}',
    en: '{visits} visits · {forms} forms · {items} items',
  },
  summary: { ko: '요약', en: 'Summary' },
  kind: { ko: '구분', en: 'Kind' },
  changes: { ko: '변경 내용', en: 'Changes' },
  none: { ko: '두 버전의 내용이 같습니다.', en: 'The two versions have the same content.' },
  printed: { ko: '출력', en: 'Printed' },
} satisfies Record<string, Text>;

const KIND_WORDS: Record<DiffLineKind, Text> = {
  added: { ko: '추가', en: 'Added' },
  removed: { ko: '삭제', en: 'Removed' },
  changed: { ko: '변경', en: 'Changed' },
  moved: { ko: '이동', en: 'Moved' },
};

const GROUP_WORDS: Record<DiffLineGroup, Text> = {
  study: { ko: '시험', en: 'Study' },
  visits: { ko: '방문', en: 'Visits' },
  unscheduledVisit: { ko: '비정기 방문', en: 'Unscheduled visit' },
  codeLists: { ko: '코드 목록', en: 'Code lists' },
  forms: { ko: '양식', en: 'Forms' },
};

const SUMMARY_ROWS: { key: keyof DefinitionComparison['summary']; words: Text }[] = [
  { key: 'visits', words: { ko: '방문', en: 'Visits' } },
  { key: 'forms', words: { ko: '양식', en: 'Forms' } },
  { key: 'items', words: { ko: '항목', en: 'Items' } },
  { key: 'codeLists', words: { ko: '코드 목록', en: 'Code lists' } },
  { key: 'checks', words: { ko: '검사', en: 'Checks' } },
];

/** The kind's cell is shaded as well as named: a reader scanning a long list finds removals at a glance. */
const KIND_FILL: Record<DiffLineKind, string> = {
  added: '#e3f4e8',
  removed: '#fbe4e4',
  changed: '#fdf3d8',
  moved: '#e6ecf7',
};
const KIND_WIDTH = 64;

export async function renderDefinitionComparisonPdf(input: {
  study: ComparedStudy;
  comparison: DefinitionComparison;
  printedAt: Date;
}): Promise<PDFKit.PDFDocument> {
  const { study, comparison } = input;
  const lang = comparison.language;
  const say = (words: Text) => words[lang];
  const doc = await openPdfPage({
    Title: `${say(WORDS.title)} ${study.code} ${comparison.from.version} → ${comparison.to.version}`,
  });

  const heading = (label: string, size: number) => writeBandHeading(doc, label, size);
  const row = (cells: string[], widths: number[], options: Parameters<typeof writeTableRow>[3] = {}) =>
    writeTableRow(doc, cells, widths, options);

  const versionText = (version: DefinitionVersionSummary) =>
    [
      `${version.version} · ${say(WORDS.written)} ${koreaDateTimeWithZone(version.createdAt)}`,
      fill(say(WORDS.size), version.counts),
      `${say(WORDS.hash)} ${version.contentHash}`,
    ].join('\n');

  // ── Title, the study and the two versions ──
  doc.font(FONT.bold).fontSize(16).fillColor(PDF_COLOR.heading).text(say(WORDS.title), PAGE.left, PAGE.top);
  doc.moveDown(0.6);
  const titleOfStudy = lang === 'en' && study.titleEn ? study.titleEn : study.title;
  const keyWidths = [110, CONTENT_WIDTH - 110];
  row([say(WORDS.study), `${study.code} — ${titleOfStudy}`], keyWidths, { firstFill: PDF_COLOR.headerFill });
  row([say(WORDS.from), versionText(comparison.from)], keyWidths, { firstFill: PDF_COLOR.headerFill });
  row([say(WORDS.to), versionText(comparison.to)], keyWidths, { firstFill: PDF_COLOR.headerFill });
  row([say(WORDS.printed), koreaDateTimeWithZone(input.printedAt)], keyWidths, {
    firstFill: PDF_COLOR.headerFill,
  });
  doc.moveDown(1);

  // ── Summary: counts per kind of element ──
  heading(say(WORDS.summary), 11);
  const countWidth = (CONTENT_WIDTH - 150) / 4;
  const countWidths = [150, countWidth, countWidth, countWidth, countWidth];
  row(
    ['', ...(['added', 'removed', 'changed', 'moved'] as const).map((kind) => say(KIND_WORDS[kind]))],
    countWidths,
    { bold: true, firstFill: PDF_COLOR.headerFill },
  );
  for (const summaryRow of SUMMARY_ROWS) {
    const count = comparison.summary[summaryRow.key];
    row(
      [
        say(summaryRow.words),
        String(count.added),
        String(count.removed),
        String(count.changed),
        String(count.moved),
      ],
      countWidths,
    );
  }
  doc.moveDown(1);

  // ── The lines, part by part ──
  const groups = groupDiffLines(comparison.lines);
  if (groups.length === 0) {
    doc.font(FONT.regular).fontSize(10).fillColor(PDF_COLOR.text).text(say(WORDS.none), PAGE.left, doc.y);
  }
  const lineWidths = [KIND_WIDTH, CONTENT_WIDTH - KIND_WIDTH];
  for (const group of groups) {
    heading(`${say(GROUP_WORDS[group.group])} (${group.lines.length})`, 11);
    const columnHeads = () =>
      row([say(WORDS.kind), say(WORDS.changes)], lineWidths, { bold: true, firstFill: PDF_COLOR.headerFill });
    columnHeads();
    for (const line of group.lines)
      row([say(KIND_WORDS[line.kind]), line.text], lineWidths, {
        firstFill: KIND_FILL[line.kind],
        // A part that runs onto the next page starts it with the column heads again.
        onNewPage: columnHeads,
      });
    doc.moveDown(0.8);
  }

  // ── Footers: study, versions and "page n of m" on every page ──
  writePageFooters(doc, `${study.code} · ${comparison.from.version} → ${comparison.to.version}`, (n, m) =>
    fill(say(PAGE_OF_WORDS), { n, m }),
  );
  doc.end();
  return doc;
}
