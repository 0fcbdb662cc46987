import PDFDocument from 'pdfkit';
import { casebookFonts } from '../casebook/casebook-font.ts';

/**
 * A small A4 document for the living demo's guideline attachments: a title, a version line and
 * numbered sections, in Noto Sans KR (the casebook's font, so Korean prints). Fixed dates make the
 * bytes the same for the same text.
 */
export function renderDemoDocumentPdf(input: {
  title: string;
  version: string;
  sections: readonly { heading: string; lines: readonly string[] }[];
}): Promise<Buffer> {
  const fonts = casebookFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: input.title, Author: 'CDMS demo', CreationDate: new Date('2026-01-01T00:00:00Z') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('bold').fontSize(18).text(input.title);
  doc.moveDown(0.3).font('regular').fontSize(10).fillColor('#555555').text(`Version ${input.version}`);
  doc.fillColor('#000000');
  input.sections.forEach((section, index) => {
    doc
      .moveDown(1)
      .font('bold')
      .fontSize(13)
      .text(`${index + 1}. ${section.heading}`);
    doc.moveDown(0.3).font('regular').fontSize(10.5);
    for (const line of section.lines) doc.text(line, { paragraphGap: 4 });
  });
  doc.end();
  return done;
}
