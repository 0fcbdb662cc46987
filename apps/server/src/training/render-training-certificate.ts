import { koreaDateTimeWithZone } from '@cdms/contract';
import { casebookFonts } from '../casebook/casebook-font.ts';

export interface TrainingCertificateInput {
  language: 'ko' | 'en';
  studyCode: string;
  studyTitle: string;
  userName: string;
  moduleTitle: string;
  version: number;
  completedAt: Date;
  score: number | null;
}

const text = {
  title: { ko: '교육 이수증', en: 'Training certificate' },
  body: {
    ko: '위 사람은 아래 교육을 이수하였음을 증명합니다.',
    en: 'This certifies that the person named above has completed the training below.',
  },
  name: { ko: '성명', en: 'Name' },
  study: { ko: '연구', en: 'Study' },
  module: { ko: '교육', en: 'Training' },
  version: { ko: '버전', en: 'Version' },
  completedAt: { ko: '이수 일시', en: 'Completed' },
  score: { ko: '퀴즈 점수', en: 'Quiz score' },
} as const;

/**
 * A one-page certificate (pdfkit, with the casebook's embedded Noto Sans KR so Korean names and
 * titles print): who, which module at which version, and when, in UTC+9.
 */
export async function renderTrainingCertificate(
  input: TrainingCertificateInput,
): Promise<PDFKit.PDFDocument> {
  // Loaded at the first PDF, not at start: pdfkit costs a server that prints none ~6 MB of its
  // resident set (docs/PERFORMANCE.md).
  const { default: PDFDocument } = await import('pdfkit');
  const lang = input.language;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 90, bottom: 72, left: 72, right: 72 },
    info: { Title: `${text.title[lang]} — ${input.moduleTitle}`, Author: input.userName, Creator: 'CDMS' },
  });
  const fonts = casebookFonts();
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const width = doc.page.width - 144;
  doc.font('bold').fontSize(28).text(text.title[lang], { align: 'center', width });
  doc.moveDown(2);
  const rows: [string, string][] = [
    [text.name[lang], input.userName],
    [text.study[lang], `${input.studyCode} — ${input.studyTitle}`],
    [text.module[lang], input.moduleTitle],
    [text.version[lang], `v${input.version}`],
    [text.completedAt[lang], koreaDateTimeWithZone(input.completedAt)],
  ];
  if (input.score !== null) rows.push([text.score[lang], `${input.score}%`]);
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('bold').fontSize(12).text(label, 72, y, { width: 110 });
    doc
      .font('regular')
      .fontSize(12)
      .text(value, 190, y, { width: width - 118 });
    doc.moveDown(0.8);
  }
  doc.moveDown(2);
  doc.font('regular').fontSize(12).text(text.body[lang], 72, doc.y, { align: 'center', width });
  doc.end();
  return doc;
}
