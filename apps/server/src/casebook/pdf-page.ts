import type { Text } from '../http/language.ts';
import { casebookFonts } from './casebook-font.ts';

/**
 * The printed page our PDFs share — the casebook, the design's version comparison and an amendment's
 * impact: A4 with the same margins, fonts (Noto Sans KR, casebook-font.ts) and palette, and the same
 * footer on every page: a rule, what the document is about on the left, "page n of m" on the right.
 * One place, so the documents stay one family.
 */

export const PAGE = { width: 595.28, height: 841.89, left: 48, right: 48, top: 52, bottom: 64 } as const;
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
/** The lowest line text may reach before a new page. */
export const BOTTOM = PAGE.height - PAGE.bottom;
export const PDF_COLOR = {
  text: '#1d232b',
  muted: '#5b6573',
  heading: '#1f3a5f',
  rule: '#c8d0da',
  headerFill: '#eef2f7',
  sectionFill: '#f6f8fb',
  bandFill: '#dde6f0',
  alert: '#9a3412',
} as const;
export const FONT = { regular: 'NotoSansKR', bold: 'NotoSansKR-Bold' } as const;
/** The padding inside a table cell. */
export const CELL_PAD = 4;

/** "Page n of m" as the design's and the amendments' documents number their pages (`fill` the n and m). */
export const PAGE_OF_WORDS: Text = { ko: '{n} / {m} 쪽', en: 'Page {n} of {m}' };

/**
 * A new A4 document on the shared page: its margins, its pages buffered (the footers number them at
 * the end), the fonts registered. pdfkit is loaded at the first PDF, not at start: it costs a server
 * that prints none ~6 MB of its resident set (docs/PERFORMANCE.md).
 */
export async function openPdfPage(info: PDFKit.DocumentInfo): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    info: { Creator: 'CDMS', ...info },
  });
  registerPdfFonts(doc);
  return doc;
}

/** The fonts registered under FONT's names (call once per document, before writing). */
function registerPdfFonts(doc: PDFKit.PDFDocument): void {
  const fonts = casebookFonts();
  doc.registerFont(FONT.regular, fonts.regular);
  doc.registerFont(FONT.bold, fonts.bold);
}

/**
 * The footer of every page of a document written with `bufferPages`: `about` on the left and
 * `pageOf(n, m)` on the right, over a thin rule. Call once, after the last page is written.
 */
export function writePageFooters(
  doc: PDFKit.PDFDocument,
  about: string,
  pageOf: (page: number, pages: number) => string,
): void {
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    // The footer sits in the bottom margin: without lifting the margin pdfkit would start a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 44;
    doc
      .moveTo(PAGE.left, y - 6)
      .lineTo(PAGE.left + CONTENT_WIDTH, y - 6)
      .lineWidth(0.5)
      .strokeColor(PDF_COLOR.rule)
      .stroke();
    doc.font(FONT.regular).fontSize(8).fillColor(PDF_COLOR.muted);
    doc.text(about, PAGE.left, y, { width: CONTENT_WIDTH / 2, lineBreak: false });
    doc.text(pageOf(index + 1, range.count), PAGE.left + CONTENT_WIDTH / 2, y, {
      width: CONTENT_WIDTH / 2,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = margin;
  }
}

/**
 * A heading on a shaded band across the page, never left alone at its foot (it moves to the next page
 * with room for a few lines under it).
 */
export function writeBandHeading(doc: PDFKit.PDFDocument, label: string, size = 11): void {
  doc.font(FONT.bold).fontSize(size);
  const height = doc.heightOfString(label, { width: CONTENT_WIDTH - 12 }) + 8;
  if (doc.y + height + 40 > BOTTOM) doc.addPage();
  const y = doc.y;
  doc.rect(PAGE.left, y, CONTENT_WIDTH, height).fill(PDF_COLOR.bandFill);
  doc.fillColor(PDF_COLOR.heading).text(label, PAGE.left + 6, y + 4, { width: CONTENT_WIDTH - 12 });
  doc.y = y + height + 4;
  doc.x = PAGE.left;
}

/**
 * A table row across the page: cells of the given widths, as tall as its tallest cell, a rule under
 * it; `firstFill` shades the first cell; a row that does not fit starts a page (then `onNewPage` runs,
 * to repeat the column heads).
 */
export function writeTableRow(
  doc: PDFKit.PDFDocument,
  cells: string[],
  widths: number[],
  options: { bold?: boolean; firstFill?: string; fontSize?: number; onNewPage?: () => void } = {},
): void {
  const font = options.bold ? FONT.bold : FONT.regular;
  const fontSize = options.fontSize ?? 9;
  doc.font(font).fontSize(fontSize);
  const height =
    Math.max(
      ...cells.map((cell, index) =>
        doc.heightOfString(cell || ' ', { width: (widths[index] ?? 0) - 2 * CELL_PAD }),
      ),
    ) +
    2 * CELL_PAD;
  if (doc.y + height > BOTTOM) {
    doc.addPage();
    options.onNewPage?.();
  }
  const y = doc.y;
  if (options.firstFill) doc.rect(PAGE.left, y, widths[0] ?? 0, height).fill(options.firstFill);
  let x = PAGE.left;
  doc.font(font).fontSize(fontSize).fillColor(PDF_COLOR.text);
  cells.forEach((cell, index) => {
    const width = widths[index] ?? 0;
    doc.text(cell, x + CELL_PAD, y + CELL_PAD, { width: width - 2 * CELL_PAD });
    x += width;
  });
  doc
    .moveTo(PAGE.left, y + height)
    .lineTo(PAGE.left + CONTENT_WIDTH, y + height)
    .lineWidth(0.5)
    .strokeColor(PDF_COLOR.rule)
    .stroke();
  doc.y = y + height;
  doc.x = PAGE.left;
}
