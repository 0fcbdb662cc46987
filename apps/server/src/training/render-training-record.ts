import { koreaDateTimeWithZone } from '@cdms/contract';
import { casebookFonts } from '../casebook/casebook-font.ts';

export interface TrainingRecordInput {
  language: 'ko' | 'en';
  studyCode: string;
  studyTitle: string;
  userName: string;
  modules: { title: string; version: number; completedAt: Date; score: number | null }[];
}

const text = {
  title: { ko: '교육 이수 증명서', en: 'Training record' },
  body: {
    ko: '위 사람은 이 연구의 아래 교육을 현재 버전으로 이수하였음을 증명합니다.',
    en: 'This certifies that the person named above has completed the training of this study listed below, at its current version.',
  },
  name: { ko: '성명', en: 'Name' },
  study: { ko: '연구', en: 'Study' },
  module: { ko: '교육', en: 'Training' },
  version: { ko: '버전', en: 'Version' },
  completedAt: { ko: '이수 일시', en: 'Completed' },
  score: { ko: '퀴즈 점수', en: 'Quiz score' },
} as const;

/**
 * One person's certificate of every module completed (pdfkit, the casebook's Noto Sans KR): who,
 * which study, then a row per module — title, version, when in UTC+9, the quiz score or a dash.
 */
export async function renderTrainingRecord(input: TrainingRecordInput): Promise<PDFKit.PDFDocument> {
  // Loaded at the first PDF, not at start (docs/PERFORMANCE.md), as the one-module certificate.
  const { default: PDFDocument } = await import('pdfkit');
  const lang = input.language;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 90, bottom: 72, left: 72, right: 72 },
    info: { Title: `${text.title[lang]} — ${input.userName}`, Author: input.userName, Creator: 'CDMS' },
  });
  const fonts = casebookFonts();
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const width = doc.page.width - 144;
  doc.font('bold').fontSize(26).text(text.title[lang], { align: 'center', width });
  doc.moveDown(1.5);
  for (const [label, value] of [
    [text.name[lang], input.userName],
    [text.study[lang], `${input.studyCode} — ${input.studyTitle}`],
  ] as const) {
    const y = doc.y;
    doc.font('bold').fontSize(12).text(label, 72, y, { width: 110 });
    doc
      .font('regular')
      .fontSize(12)
      .text(value, 190, y, { width: width - 118 });
    doc.moveDown(0.6);
  }
  doc.moveDown(1);
  doc.font('regular').fontSize(11).text(text.body[lang], 72, doc.y, { width });
  doc.moveDown(1);
  // The table: module | version | completed | score.
  const columns = [
    { label: text.module[lang], x: 72, width: 200 },
    { label: text.version[lang], x: 280, width: 50 },
    { label: text.completedAt[lang], x: 336, width: 130 },
    { label: text.score[lang], x: 472, width: 51 },
  ];
  const row = (cells: string[], font: 'regular' | 'bold') => {
    if (doc.y > doc.page.height - 110) doc.addPage();
    const y = doc.y;
    let bottom = y;
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (!column) return;
      doc.font(font).fontSize(10).text(cell, column.x, y, { width: column.width });
      bottom = Math.max(bottom, doc.y);
    });
    doc.y = bottom + 4;
    doc
      .moveTo(72, doc.y)
      .lineTo(72 + width, doc.y)
      .lineWidth(0.5)
      .strokeColor('#9ca3af')
      .stroke();
    doc.y += 4;
  };
  row(
    columns.map((column) => column.label),
    'bold',
  );
  for (const module of input.modules)
    row(
      [
        module.title,
        `v${module.version}`,
        koreaDateTimeWithZone(module.completedAt),
        module.score === null ? '—' : `${module.score}%`,
      ],
      'regular',
    );
  doc.end();
  return doc;
}
