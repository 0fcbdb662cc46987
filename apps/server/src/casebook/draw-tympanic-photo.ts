import {
  parsePhotoReference,
  parseTracing,
  type Tracing,
  type TracingShape,
  tracingAreaPercent,
  tracingDiameterPercent,
} from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { CasebookForm, CasebookSubject } from './load-casebooks.ts';

// Issue 19 item 2: the eardrum photo in the casebook, with the tracing drawn over it as the form showed
// it (membrane outline amber, perforation cyan and dashed) and the two percents beneath. The renderer
// calls `drawTympanicPhoto` after a form's table; the photos of a batch are loaded once beside it.

export interface CasebookPhoto {
  bytes: Buffer;
  width: number;
  height: number;
}

/** The stored photos the batch's forms refer to, by id (one query per batch). */
export async function loadCasebookPhotos(db: Kysely<Database>, subjects: CasebookSubject[]): Promise<void> {
  const wanted = new Map<number, CasebookSubject>();
  for (const subject of subjects)
    for (const form of subject.forms)
      for (const stored of form.values.values()) {
        const reference = parsePhotoReference(stored.value);
        if (reference) wanted.set(reference.photoId, subject);
      }
  if (wanted.size === 0) return;
  const rows = await db
    .selectFrom('form_photos')
    .select(['id', 'subject_id', 'bytes', 'width', 'height'])
    .where('id', 'in', [...wanted.keys()])
    .execute();
  for (const row of rows) {
    const subject = wanted.get(row.id);
    if (!subject || subject.id !== row.subject_id) continue;
    subject.photos ??= new Map();
    subject.photos.set(row.id, { bytes: Buffer.from(row.bytes), width: row.width, height: row.height });
  }
}

/** A form's photo and tracing, when it has a photo the batch loaded. */
export function tympanicPhotoOf(
  form: CasebookForm,
  photos: ReadonlyMap<number, CasebookPhoto> | undefined,
): { photo: CasebookPhoto; tracing: Tracing | null } | null {
  for (const stored of form.values.values()) {
    const reference = parsePhotoReference(stored.value);
    const photo = reference ? photos?.get(reference.photoId) : undefined;
    if (!photo) continue;
    let tracing: Tracing | null = null;
    for (const other of form.values.values()) tracing ??= parseTracing(other.value);
    return { photo, tracing };
  }
  return null;
}

const MEMBRANE = '#f59e0b';
const PERFORATION = '#0891b2';

/**
 * Draws the photo at (x, y), `width` points wide, the tracing over it and a caption line below; returns
 * the height used.
 */
export function drawTympanicPhoto(
  doc: PDFKit.PDFDocument,
  input: { photo: CasebookPhoto; tracing: Tracing | null },
  at: { x: number; y: number; width: number; caption: (area: string, diameter: string) => string },
): number {
  const { photo, tracing } = input;
  const width = at.width;
  const height = (width * photo.height) / photo.width;
  doc.image(photo.bytes, at.x, at.y, { width, height });
  const shape = (outline: TracingShape, color: string, dashed: boolean) => {
    doc.save();
    doc.lineWidth(1.6).strokeColor(color);
    if (dashed) doc.dash(4, { space: 2 });
    if (outline.kind === 'ellipse') {
      doc.ellipse(
        at.x + outline.cx * width,
        at.y + outline.cy * height,
        outline.rx * width,
        outline.ry * height,
      );
    } else {
      doc.polygon(
        ...outline.points.map(([px, py]): [number, number] => [at.x + px * width, at.y + py * height]),
      );
    }
    doc.stroke();
    doc.restore();
  };
  if (tracing?.membrane) shape(tracing.membrane, MEMBRANE, false);
  if (tracing?.perforation) shape(tracing.perforation, PERFORATION, true);
  for (const [line, color] of [
    [tracing?.membraneDiameter, MEMBRANE],
    [tracing?.perforationDiameter, PERFORATION],
  ] as const) {
    if (!line) continue;
    doc.save();
    doc.lineWidth(1.2).strokeColor(color);
    doc.moveTo(at.x + line[0][0] * width, at.y + line[0][1] * height);
    doc.lineTo(at.x + line[1][0] * width, at.y + line[1][1] * height);
    doc.stroke();
    doc.restore();
  }
  const percent = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} %`);
  const caption = at.caption(
    percent(tracing ? tracingAreaPercent(tracing) : null),
    percent(tracing ? tracingDiameterPercent(tracing) : null),
  );
  doc.fontSize(8.5).text(caption, at.x, at.y + height + 4, { width });
  return height + 4 + doc.heightOfString(caption, { width }) + 4;
}
