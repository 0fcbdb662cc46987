import {
  AUDIOGRAM_AXIS_FREQUENCIES,
  type AudiogramLayout,
  type AudiogramPoint,
  audiogramBandSpan,
  audiogramDbTicks,
  audiogramXFraction,
  audiogramYFraction,
} from '@cdms/study';
import type { Language } from '../http/language.ts';
import { fill, casebookText as T } from './casebook-text.ts';

/**
 * The PTA form's audiogram in the casebook (issue 19 item 3), drawn as the form draws it (the axes
 * are the study package's): frequency on a logarithmic axis, hearing level increasing downwards, the
 * severity bands shaded, air conduction joined by a line and bone conduction as brackets beside the
 * frequency line, right ear red O and <, left ear blue X and >. The values stay in the table above it.
 */

export type AudiogramEar = 'R' | 'L' | null;

export interface DrawAudiogramInput {
  layout: AudiogramLayout;
  points: Record<'air' | 'bone', AudiogramPoint[]>;
  ear: AudiogramEar;
  language: Language;
  fonts: { regular: string; bold: string };
  /** The top-left corner and the width of the figure; its height follows. */
  x: number;
  y: number;
  width: number;
}

const EAR_COLOR = { R: '#b91c1c', L: '#1d4ed8', unknown: '#374151' } as const;
/** The bands grow darker with the hearing loss: white for normal hearing to a grey blue for the deepest. */
function bandFill(index: number, count: number): string {
  const share = count > 1 ? index / (count - 1) : 0;
  const channel = (from: number, to: number) =>
    Math.round(from + (to - from) * share)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0xff, 0xbd)}${channel(0xff, 0xcc)}${channel(0xff, 0xde)}`;
}
const GRID = '#c8d0da';
const MUTED = '#5b6573';
const LABEL_ROOM = { left: 40, right: 84, top: 18, bottom: 34 } as const;

export function audiogramHeight(width: number): number {
  return (
    Math.round((width - LABEL_ROOM.left - LABEL_ROOM.right) * 0.62) + LABEL_ROOM.top + LABEL_ROOM.bottom + 16
  );
}

/** Draws the figure and returns its height in points. */
export function drawAudiogram(doc: PDFKit.PDFDocument, input: DrawAudiogramInput): number {
  const { layout, points, ear, language: lang, fonts } = input;
  const plot = {
    left: input.x + LABEL_ROOM.left,
    right: input.x + input.width - LABEL_ROOM.right,
    top: input.y + LABEL_ROOM.top,
    bottom: input.y + audiogramHeight(input.width) - LABEL_ROOM.bottom - 16,
  };
  const xOf = (hz: number) => plot.left + audiogramXFraction(hz) * (plot.right - plot.left);
  const yOf = (db: number) => plot.top + audiogramYFraction(db) * (plot.bottom - plot.top);
  const color = ear === 'R' ? EAR_COLOR.R : ear === 'L' ? EAR_COLOR.L : EAR_COLOR.unknown;
  const airMark = ear === 'L' ? 'X' : 'O';
  const boneMark = ear === 'L' ? '>' : '<';

  doc.save();
  layout.bands.forEach((band, index) => {
    const span = audiogramBandSpan(band);
    const top = plot.top + span.top * (plot.bottom - plot.top);
    const bottom = plot.top + span.bottom * (plot.bottom - plot.top);
    doc.rect(plot.left, top, plot.right - plot.left, bottom - top).fill(bandFill(index, layout.bands.length));
    doc
      .font(fonts.regular)
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(band.label[lang].replace(/\s*\(.*\)$/, ''), plot.right + 4, (top + bottom) / 2 - 4, {
        width: LABEL_ROOM.right - 6,
        lineBreak: false,
      });
  });

  doc.lineWidth(0.4).strokeColor(GRID);
  doc.font(fonts.regular).fontSize(7).fillColor(MUTED);
  for (const db of audiogramDbTicks()) {
    doc.moveTo(plot.left, yOf(db)).lineTo(plot.right, yOf(db)).stroke();
    doc.text(String(db), plot.left - 26, yOf(db) - 4, { width: 22, align: 'right', lineBreak: false });
  }
  for (const hz of AUDIOGRAM_AXIS_FREQUENCIES) {
    doc.moveTo(xOf(hz), plot.top).lineTo(xOf(hz), plot.bottom).stroke();
    const label = hz >= 1000 ? `${hz / 1000}k` : String(hz);
    doc.text(label, xOf(hz) - 15, plot.top - 13, { width: 30, align: 'center', lineBreak: false });
  }
  doc.rect(plot.left, plot.top, plot.right - plot.left, plot.bottom - plot.top).stroke();
  doc.text(T.audiogramFrequency[lang], plot.left, plot.bottom + 4, {
    width: plot.right - plot.left,
    align: 'center',
    lineBreak: false,
  });
  doc.save();
  doc.rotate(-90, { origin: [input.x + 6, (plot.top + plot.bottom) / 2] });
  doc.text(T.audiogramLevel[lang], input.x + 6 - 60, (plot.top + plot.bottom) / 2 - 4, {
    width: 120,
    align: 'center',
    lineBreak: false,
  });
  doc.restore();

  // The marks: air joined by a line, bone beside the frequency line on the ear's side.
  if (points.air.length > 1) {
    const [first, ...rest] = points.air as [AudiogramPoint, ...AudiogramPoint[]];
    doc.moveTo(xOf(first.hz), yOf(first.db));
    for (const point of rest) doc.lineTo(xOf(point.hz), yOf(point.db));
    doc.lineWidth(1).strokeColor(color).stroke();
  }
  doc.font(fonts.bold).fontSize(10).fillColor(color);
  const mark = (symbol: string, x: number, y: number) =>
    doc.text(symbol, x - 8, y - 7, { width: 16, align: 'center', lineBreak: false });
  for (const point of points.air) mark(airMark, xOf(point.hz), yOf(point.db));
  for (const point of points.bone) mark(boneMark, xOf(point.hz) + (ear === 'L' ? 9 : -9), yOf(point.db));

  // The legend under the axis title.
  const earName = ear === 'R' ? T.earR[lang] : ear === 'L' ? T.earL[lang] : T.earUnknown[lang];
  const legend = `${airMark} ${T.audiogramAir[lang]}    ${boneMark} ${T.audiogramBone[lang]}    ${fill(T.audiogramEar[lang], { ear: earName })}`;
  doc
    .font(fonts.regular)
    .fontSize(7.5)
    .fillColor(color)
    .text(legend, plot.left, plot.bottom + 16, {
      width: plot.right - plot.left,
      align: 'center',
      lineBreak: false,
    });
  doc.restore();
  return audiogramHeight(input.width);
}
