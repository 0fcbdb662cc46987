import { koreaDateTimeWithZone } from '@cdms/contract';
import {
  audiogramEarOf,
  audiogramLayout,
  audiogramPoints,
  getFormLayout,
  getItemCodes,
  type ItemDefinition,
  isSigningForm,
  isValidDate,
  orderVisitKeys,
  resolveVisit,
  type SectionDefinition,
  type StudyDefinition,
  sectionsForVisit,
} from '@cdms/study';
import type { Language, Text } from '../http/language.ts';
import { queryLabels } from '../queries/query-presenter.ts';
import { queryStateText } from '../queries/query-state-text.ts';
import { subjectStatusText } from '../subjects/subject-status-text.ts';
import { fill, holdLevelText, messageKindText, casebookText as T } from './casebook-text.ts';
import { audiogramHeight, drawAudiogram } from './draw-audiogram.ts';
import { drawTympanicPhoto, tympanicPhotoOf } from './draw-tympanic-photo.ts';
import type { CasebookAuditEntry, CasebookForm, CasebookHold, CasebookSubject } from './load-casebooks.ts';
import {
  BOTTOM,
  CELL_PAD,
  CONTENT_WIDTH,
  FONT,
  openPdfPage,
  PAGE,
  PDF_COLOR,
  writePageFooters,
} from './pdf-page.ts';

/**
 * One subject's casebook as a PDF (A4): a cover, every visit → saved form in the definition's order
 * with its values, units, derived marks, SDV and hold marks, queries with their threads and (when
 * asked) the form's audit trail, then the §11.50 signature page. Every page carries the study, the
 * subject and "page n of m". Pages are buffered until the end to number them — one subject's casebook
 * is a few dozen pages at most; the site's ZIP renders one subject at a time.
 */

export interface CasebookHeader {
  studyCode: string;
  studyTitle: string;
  siteCode: string;
  siteName: string;
}

export interface RenderCasebookInput {
  header: CasebookHeader;
  subject: CasebookSubject;
  definition: StudyDefinition;
  language: Language;
  withAudit: boolean;
  printedAt: Date;
  printedBy: string;
}

interface Column {
  header: string;
  width: number;
}

export async function renderCasebookPdf(input: RenderCasebookInput): Promise<PDFKit.PDFDocument> {
  const { header, subject, definition, language: lang, withAudit } = input;
  const doc = await openPdfPage({
    Title: `${T.title[lang]} ${header.studyCode} ${subject.screeningNumber}`,
    Author: input.printedBy,
    // The file's creation date is its print time (PDFKit would take its own "now", and derive the
    // file's ID from it): the same casebook printed at the same time is the same bytes, which is
    // how a restore is shown to give back every casebook as it was (backup/backup-restore.test.ts).
    CreationDate: input.printedAt,
  });
  doc.font(FONT.regular).fontSize(9).fillColor(PDF_COLOR.text);

  const text = (words: Text) => words[lang];

  /** A new page when fewer than `height` points are left on this one. */
  function ensureSpace(height: number): void {
    if (doc.y + height > BOTTOM) doc.addPage();
  }

  function heading(label: string, size: number, band = false): void {
    doc.font(FONT.bold).fontSize(size);
    const height = doc.heightOfString(label, { width: CONTENT_WIDTH - 12 }) + 8;
    ensureSpace(height + 40);
    const y = doc.y;
    if (band) doc.rect(PAGE.left, y, CONTENT_WIDTH, height).fill(PDF_COLOR.bandFill);
    doc
      .fillColor(PDF_COLOR.heading)
      .text(label, PAGE.left + (band ? 6 : 0), y + 4, { width: CONTENT_WIDTH - 12 });
    doc.y = y + height + 2;
    doc.x = PAGE.left;
    doc.font(FONT.regular).fontSize(9).fillColor(PDF_COLOR.text);
  }

  function note(line: string, color: string = PDF_COLOR.muted, size = 8.5): void {
    doc.font(FONT.regular).fontSize(size);
    ensureSpace(doc.heightOfString(line, { width: CONTENT_WIDTH }) + 2);
    doc.fillColor(color).text(line, PAGE.left, doc.y, { width: CONTENT_WIDTH });
    doc.fillColor(PDF_COLOR.text).fontSize(9);
  }

  function rowHeight(cells: string[], columns: Column[], font: string, size: number): number {
    doc.font(font).fontSize(size);
    let height = 0;
    cells.forEach((cell, index) => {
      const width = (columns[index]?.width ?? 0) - 2 * CELL_PAD;
      height = Math.max(height, doc.heightOfString(cell || ' ', { width }));
    });
    return height + 2 * CELL_PAD;
  }

  function drawRow(
    cells: string[],
    columns: Column[],
    options: { header?: boolean; section?: boolean } = {},
  ) {
    const font = options.header || options.section ? FONT.bold : FONT.regular;
    const size = options.header ? 8 : 8.5;
    const height = rowHeight(cells, columns, font, size);
    const y = doc.y;
    const fillColor = options.header
      ? PDF_COLOR.headerFill
      : options.section
        ? PDF_COLOR.sectionFill
        : undefined;
    if (fillColor) doc.rect(PAGE.left, y, sumWidths(columns), height).fill(fillColor);
    let x = PAGE.left;
    doc
      .font(font)
      .fontSize(size)
      .fillColor(options.header ? PDF_COLOR.heading : PDF_COLOR.text);
    cells.forEach((cell, index) => {
      const width = columns[index]?.width ?? 0;
      doc.text(cell, x + CELL_PAD, y + CELL_PAD, { width: width - 2 * CELL_PAD });
      x += width;
    });
    doc
      .moveTo(PAGE.left, y + height)
      .lineTo(PAGE.left + sumWidths(columns), y + height)
      .lineWidth(0.5)
      .strokeColor(PDF_COLOR.rule)
      .stroke();
    doc.y = y + height;
    doc.x = PAGE.left;
    doc.fillColor(PDF_COLOR.text);
  }

  /**
   * A table whose header is repeated at the top of every page it runs onto; rows whose index is in
   * `sectionRows` are a section's title spanning the row, shaded.
   */
  function table(columns: Column[], rows: string[][], sectionRows: ReadonlySet<number> = new Set()): void {
    const headerCells = columns.map((column) => column.header);
    const headerHeight = rowHeight(headerCells, columns, FONT.bold, 8);
    const firstHeight = rows[0] ? rowHeight(rows[0], columns, FONT.regular, 8.5) : 0;
    ensureSpace(headerHeight + firstHeight);
    drawRow(headerCells, columns, { header: true });
    rows.forEach((row, index) => {
      const height = rowHeight(row, columns, FONT.regular, 8.5);
      // A section's title is never left alone at the bottom of a page.
      const keepWithNext = sectionRows.has(index) ? 24 : 0;
      if (doc.y + height + keepWithNext > BOTTOM) {
        doc.addPage();
        drawRow(headerCells, columns, { header: true });
      }
      drawRow(row, columns, sectionRows.has(index) ? { section: true } : {});
    });
    doc.moveDown(0.6);
  }

  function keyValueTable(pairs: [string, string][]): void {
    const columns = [
      { header: '', width: 150 },
      { header: '', width: CONTENT_WIDTH - 150 },
    ];
    for (const [key, value] of pairs) {
      const height = rowHeight([key, value], columns, FONT.regular, 9.5);
      ensureSpace(height);
      const y = doc.y;
      doc.rect(PAGE.left, y, 150, height).fill(PDF_COLOR.headerFill);
      doc.font(FONT.bold).fontSize(9.5).fillColor(PDF_COLOR.heading);
      doc.text(key, PAGE.left + CELL_PAD, y + CELL_PAD, { width: 150 - 2 * CELL_PAD });
      doc.font(FONT.regular).fillColor(PDF_COLOR.text);
      doc.text(value, PAGE.left + 150 + CELL_PAD, y + CELL_PAD, {
        width: CONTENT_WIDTH - 150 - 2 * CELL_PAD,
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
    doc.moveDown(0.8);
  }

  const holdLine = (holds: CasebookHold[]) =>
    holds
      .map(
        (hold) =>
          `${text(hold.kind === 'locked' ? T.locked : T.frozen)} (${text(holdLevelText[hold.level])}, ${koreaDateTimeWithZone(hold.placedAt)}, ${hold.placedBy})`,
      )
      .join(' · ');

  const subjectHolds = subject.holds.filter((hold) => hold.level !== 'form');

  // ── Cover ──
  doc.y = 150;
  doc.font(FONT.bold).fontSize(26).fillColor(PDF_COLOR.heading).text(text(T.title), PAGE.left, doc.y, {
    width: CONTENT_WIDTH,
    align: 'center',
  });
  doc.moveDown(0.2);
  doc.font(FONT.regular).fontSize(11).fillColor(PDF_COLOR.muted).text(text(T.subtitle), {
    width: CONTENT_WIDTH,
    align: 'center',
  });
  doc.moveDown(2.5);
  doc.x = PAGE.left;
  const signatureSummary = !subject.signature
    ? text(T.notSigned)
    : subject.signature.invalidatedAt
      ? fill(text(T.invalidated), {
          at: koreaDateTimeWithZone(subject.signature.invalidatedAt),
          reason: subject.signature.invalidatedReason ?? '',
        })
      : `${subject.signature.printedName}, ${koreaDateTimeWithZone(subject.signature.signedAt)}`;
  keyValueTable([
    [text(T.study), header.studyCode],
    [text(T.studyTitle), header.studyTitle],
    [text(T.site), `${header.siteCode} ${header.siteName}`],
    [text(T.screeningNumber), subject.screeningNumber],
    [text(T.randomizationNumber), subject.randomizationNumber ?? '—'],
    [text(T.initials), subject.initials],
    [text(T.consentDate), subject.consentDate],
    [text(T.status), subjectStatusText[subject.status][lang]],
    [text(T.signatureState), signatureSummary],
    [text(T.holdsInForce), subjectHolds.length > 0 ? holdLine(subjectHolds) : text(T.none)],
    [text(T.printedAt), koreaDateTimeWithZone(input.printedAt)],
    [text(T.printedBy), input.printedBy],
    [text(T.withAudit), text(withAudit ? T.yes : T.no)],
  ]);

  // ── Visits and forms, in the definition's order; unscheduled visits among them by date (issue 19) ──
  doc.addPage();
  const formsByKey = new Map(subject.forms.map((form) => [`${form.visitKey}|${form.formKey}`, form]));
  const printedForms = new Set<string>();
  const unscheduled = new Map(subject.unscheduledVisits.map((visit) => [visit.visitKey, visit]));
  const visits = orderVisitKeys(
    definition,
    casebookVisitDates(definition, subject),
    subject.unscheduledVisits,
  )
    .map((visitKey) => resolveVisit(definition, visitKey))
    .filter((visit) => visit !== undefined);
  for (const visit of visits) {
    const saved = visit.forms
      .filter((formKey) => !isSigningForm(definition, visit.key, formKey))
      .map((formKey) => formsByKey.get(`${visit.key}|${formKey}`))
      .filter((form): form is CasebookForm => form !== undefined);
    if (saved.length === 0) continue;
    const extra = unscheduled.get(visit.key);
    heading(extra ? `${visit.label[lang]} · ${extra.visitDate}` : visit.label[lang], 14);
    if (extra) note(`${text(T.unscheduledReason)}: ${extra.reason}`, PDF_COLOR.text, 9);
    for (const form of saved) {
      printedForms.add(`${form.visitKey}|${form.formKey}`);
      printForm(form);
    }
  }
  if (printedForms.size === 0) note(text(T.noData), PDF_COLOR.text, 10);
  const otherQueries = subject.queries.filter(
    ({ query }) => !printedForms.has(`${query.visit_key}|${query.form_key}`),
  );
  if (otherQueries.length > 0) {
    heading(text(T.queries), 12, true);
    printQueries(otherQueries);
  }

  // ── Signature page (21 CFR §11.50) ──
  doc.addPage();
  heading(text(T.signaturePage), 15);
  doc.moveDown(0.5);
  const signature = subject.signature;
  if (!signature) {
    doc.font(FONT.bold).fontSize(13).fillColor(PDF_COLOR.alert).text(text(T.notSigned));
    doc.moveDown(0.3);
    note(text(T.notSignedDetail), PDF_COLOR.text, 10);
  } else {
    if (signature.invalidatedAt) {
      doc
        .font(FONT.bold)
        .fontSize(12)
        .fillColor(PDF_COLOR.alert)
        .text(
          fill(text(T.invalidated), {
            at: koreaDateTimeWithZone(signature.invalidatedAt),
            reason: signature.invalidatedReason ?? '',
          }),
          { width: CONTENT_WIDTH },
        );
      doc.moveDown(0.6);
      note(text(T.previousSignature), PDF_COLOR.muted, 9);
      doc.moveDown(0.2);
    }
    keyValueTable([
      [text(T.printedName), signature.printedName],
      [text(T.role), signature.role ?? '—'],
      [text(T.signedAt), koreaDateTimeWithZone(signature.signedAt)],
      [text(T.meaning), signature.meaning[lang] || signature.meaning.ko],
    ]);
  }

  // ── Footers: study, subject and "page n of m" on every page ──
  writePageFooters(
    doc,
    `${header.studyCode} · ${text(T.subject)} ${subject.screeningNumber} · ${header.siteCode}`,
    (n, m) => fill(text(T.page), { n, m }),
  );
  doc.end();
  return doc;

  /** The eardrum photo a form refers to, with its tracing and the two percents, under its table. */
  function printTympanicPhoto(form: CasebookForm): void {
    const photo = tympanicPhotoOf(form, subject.photos);
    if (!photo) return;
    const width = Math.min(300, CONTENT_WIDTH);
    ensureSpace((width * photo.photo.height) / photo.photo.width + 30);
    const top = doc.y + 4;
    const used = drawTympanicPhoto(doc, photo, {
      x: PAGE.left,
      y: top,
      width,
      caption: (area, diameter) => fill(text(T.photoCaption), { area, diameter }),
    });
    doc.font(FONT.regular).fontSize(9).fillColor(PDF_COLOR.text);
    doc.x = PAGE.left;
    doc.y = top + used;
  }

  /** The PTA form's thresholds as an audiogram under its table, in the treated ear's symbols. */
  function printAudiogram(form: CasebookForm): void {
    const layout = audiogramLayout(definition);
    if (!layout) return;
    const points = audiogramPoints(layout, (itemKey) => form.values.get(itemKey)?.value);
    if (points.air.length === 0 && points.bone.length === 0) return;
    const ear = layout.treatedEar;
    const earForm = ear ? formsByKey.get(`${ear.visit}|${ear.form}`) : undefined;
    const earValue = ear ? earForm?.values.get(ear.item)?.value : undefined;
    const width = Math.min(CONTENT_WIDTH, 420);
    const height = audiogramHeight(width) + 18;
    ensureSpace(height);
    doc.font(FONT.bold).fontSize(9.5).fillColor(PDF_COLOR.heading).text(text(T.audiogram), PAGE.left, doc.y);
    const top = doc.y + 2;
    drawAudiogram(doc, {
      layout,
      points,
      ear: audiogramEarOf(layout, earValue),
      language: lang,
      fonts: FONT,
      x: PAGE.left + (CONTENT_WIDTH - width) / 2,
      y: top,
      width,
    });
    doc.y = top + audiogramHeight(width);
    doc.x = PAGE.left;
    doc.font(FONT.regular).fontSize(9).fillColor(PDF_COLOR.text);
    doc.moveDown(0.6);
  }

  function printForm(form: CasebookForm): void {
    const layout = getFormLayout(definition, form.visitKey, form.formKey);
    const formDefinition = layout?.form;
    heading(formDefinition ? formDefinition.label[lang] : form.formKey, 11, true);
    const holds = [
      ...subjectHolds,
      ...subject.holds.filter(
        (hold) => hold.level === 'form' && hold.visitKey === form.visitKey && hold.formKey === form.formKey,
      ),
    ];
    const enteredKeys = [...form.values.entries()]
      .filter(([, stored]) => !stored.derived && !isBlank(stored.value))
      .map(([key]) => key);
    const verified = enteredKeys.filter((key) => form.sdv.get(key)?.state === 'verified').length;
    note(
      [
        `${text(T.saved)}: ${koreaDateTimeWithZone(form.savedAt)}${form.savedBy ? ` (${form.savedBy})` : ''}`,
        `${text(T.version)} ${form.version}`,
        fill(text(T.enteredUnder), { version: form.definitionVersion }),
        fill(text(T.sdvSummary), { verified, total: enteredKeys.length }),
      ].join('  ·  '),
    );
    if (holds.length > 0) note(holdLine(holds), PDF_COLOR.alert);
    doc.moveDown(0.3);

    const sections = formDefinition ? sectionsForVisit(formDefinition, form.visitKey) : [];
    const plainRows: string[][] = [];
    const sectionRows = new Set<number>();
    const flushPlainRows = () => {
      if (plainRows.length === 0) return;
      table(
        [
          { header: text(T.item), width: 185 },
          { header: text(T.value), width: 170 },
          { header: text(T.unit), width: 56 },
          { header: text(T.sdv), width: CONTENT_WIDTH - 185 - 170 - 56 },
        ],
        plainRows.splice(0),
        new Set(sectionRows),
      );
      sectionRows.clear();
    };
    for (const section of sections) {
      if (section.repeating) {
        flushPlainRows();
        printRepeatingSection(section, form);
        continue;
      }
      if (sections.length > 1) {
        sectionRows.add(plainRows.length);
        plainRows.push([section.label[lang], '', '', '']);
      }
      for (const item of section.items) {
        const stored = form.values.get(item.key);
        plainRows.push([
          item.label[lang],
          valueText(item, stored?.value, stored?.derived ?? false),
          item.unit ?? '',
          sdvText(form, item.key),
        ]);
      }
    }
    flushPlainRows();
    printTympanicPhoto(form);
    if (form.formKey === definition.roles?.audiogram?.form) printAudiogram(form);

    const queries = subject.queries.filter(
      ({ query }) => query.visit_key === form.visitKey && query.form_key === form.formKey,
    );
    if (queries.length > 0) {
      doc.font(FONT.bold).fontSize(9.5).fillColor(PDF_COLOR.heading);
      ensureSpace(40);
      doc.text(`${text(T.queries)} (${queries.length})`, PAGE.left, doc.y);
      doc.moveDown(0.2);
      printQueries(queries);
    }
    if (withAudit) printAudit(form);
    doc.moveDown(0.6);
  }

  function printRepeatingSection(section: SectionDefinition, form: CasebookForm): void {
    const repeatingKey = section.repeating?.key ?? section.key;
    ensureSpace(50);
    doc.font(FONT.bold).fontSize(9).fillColor(PDF_COLOR.heading).text(section.label[lang], PAGE.left, doc.y);
    doc.moveDown(0.2);
    const stored = form.values.get(repeatingKey)?.value;
    const rows = Array.isArray(stored) ? (stored as Record<string, unknown>[]) : [];
    if (rows.length === 0) {
      note(text(T.noRows));
      doc.moveDown(0.4);
      return;
    }
    const numberWidth = 22;
    const headers = section.items.map((item) =>
      item.unit ? `${item.label[lang]} (${item.unit})` : item.label[lang],
    );
    const cells = rows.map((row) =>
      section.items.map((item) => valueText(item, row?.[item.key], item.derive !== undefined)),
    );
    // Columns share the width by what they hold (their longest value or header word, within bounds),
    // so a drug name is not broken while a dose column stays narrow.
    doc.font(FONT.regular).fontSize(8.5);
    const wanted = headers.map((header, column) => {
      const longestWord = Math.max(...header.split(/\s+/).map((word) => doc.widthOfString(word)));
      const longestValue = Math.max(0, ...cells.map((row) => doc.widthOfString(row[column] ?? '')));
      return Math.min(Math.max(longestWord, longestValue, 30), 170) + 2 * CELL_PAD;
    });
    const totalWanted = wanted.reduce((sum, width) => sum + width, 0);
    const columns: Column[] = [
      { header: '#', width: numberWidth },
      ...headers.map((header, column) => ({
        header,
        width: ((wanted[column] ?? 0) / totalWanted) * (CONTENT_WIDTH - numberWidth),
      })),
    ];
    table(
      columns,
      cells.map((row, index) => [String(index + 1), ...row]),
    );
    const mark = sdvText(form, repeatingKey);
    if (mark) {
      note(`${text(T.sdv)}: ${mark.replace('\n', ' ')}`);
      doc.moveDown(0.4);
    }
  }

  function printQueries(queries: CasebookSubject['queries']): void {
    for (const { query, messages } of queries) {
      const labels = queryLabels(definition, query.visit_key, query.form_key, query.item_path);
      doc.font(FONT.bold).fontSize(8.5);
      const title = `${text(T.query)} #${query.id} · ${labels.itemLabel[lang]} · ${queryStateText[query.status][lang]}`;
      ensureSpace(doc.heightOfString(title, { width: CONTENT_WIDTH }) + 24);
      doc
        .fillColor(query.status === 'open' ? PDF_COLOR.alert : PDF_COLOR.heading)
        .text(title, PAGE.left + 6, doc.y, { width: CONTENT_WIDTH - 6 });
      doc.font(FONT.regular).fontSize(8.5).fillColor(PDF_COLOR.text);
      for (const message of messages) {
        const who =
          message.author_user_id === null
            ? lang === 'ko'
              ? '시스템'
              : 'System'
            : `${message.author_name ?? ''}${message.author_role ? ` (${message.author_role.split(',')[0]})` : ''}`;
        const body = message.text[lang] || message.text.ko;
        const line = `${koreaDateTimeWithZone(message.created_at)} · ${who} · ${messageKindText[message.kind]?.[lang] ?? message.kind}: ${body}`;
        ensureSpace(doc.heightOfString(line, { width: CONTENT_WIDTH - 18 }) + 2);
        doc.text(line, PAGE.left + 18, doc.y, { width: CONTENT_WIDTH - 18 });
      }
      doc.moveDown(0.4);
      doc.x = PAGE.left;
    }
  }

  function printAudit(form: CasebookForm): void {
    const prefix = `${form.visitKey}.${form.formKey}.`;
    const entries = subject.audit.filter((entry) => entry.path.startsWith(prefix));
    if (entries.length === 0) return;
    doc.font(FONT.bold).fontSize(9.5).fillColor(PDF_COLOR.heading);
    ensureSpace(50);
    doc.text(`${text(T.auditTrail)} (${entries.length})`, PAGE.left, doc.y);
    doc.moveDown(0.2);
    const layout = getFormLayout(definition, form.visitKey, form.formKey);
    table(
      [
        { header: text(T.time), width: 104 },
        { header: text(T.user), width: 70 },
        { header: text(T.item), width: 110 },
        { header: text(T.change), width: 115 },
        { header: text(T.reason), width: CONTENT_WIDTH - 104 - 70 - 110 - 115 },
      ],
      entries.map((entry: CasebookAuditEntry) => {
        const key = entry.path.slice(prefix.length);
        const item = layout?.items.get(key)?.item;
        const label = item?.label[lang] ?? sectionLabelOfGroup(key) ?? key;
        const before = auditValue(item, entry.before);
        const after = auditValue(item, entry.after);
        return [
          koreaDateTimeWithZone(entry.at),
          entry.user,
          label,
          `${before} → ${after}`,
          entry.reason ?? '',
        ];
      }),
    );

    function sectionLabelOfGroup(key: string): string | undefined {
      const formDefinition = layout?.form;
      if (!formDefinition) return undefined;
      const section = sectionsForVisit(formDefinition, form.visitKey).find(
        (candidate) => candidate.repeating?.key === key,
      );
      return section?.label[lang];
    }
  }

  function auditValue(item: ItemDefinition | undefined, stored: unknown): string {
    const value = (stored as { value?: unknown } | null)?.value;
    if (Array.isArray(value) && value.some((entry) => typeof entry === 'object' && entry !== null))
      return lang === 'ko' ? `${value.length}행` : `${value.length} row(s)`;
    return item ? valueText(item, value, false) : isBlank(value) ? '—' : JSON.stringify(value);
  }

  function sdvText(form: CasebookForm, key: string): string {
    const mark = form.sdv.get(key);
    if (!mark) return '';
    return `${text(mark.state === 'verified' ? T.sdvVerified : T.sdvChanged)}\n${koreaDateTimeWithZone(mark.at).slice(0, 10)} ${mark.by}`;
  }

  /** A value as printed: code label in the reader's language with the code, yes/no, or the text. */
  function valueText(item: ItemDefinition, value: unknown, derived: boolean): string {
    if (isBlank(value)) return '—';
    const codes = getItemCodes(definition, item);
    let shown: string;
    if (codes.length > 0) {
      const list = Array.isArray(value) ? value : [value];
      shown = list
        .map((code) => {
          const known = codes.find((candidate) => candidate.code === String(code));
          return known ? `${known.label[lang]} (${known.code})` : String(code);
        })
        .join(', ');
    } else if (typeof value === 'boolean') {
      shown = text(value ? T.yes : T.no);
    } else if (typeof value === 'string' || typeof value === 'number') {
      shown = String(value);
    } else {
      shown = JSON.stringify(value);
    }
    return derived ? `${shown}  [${text(T.derived)}]` : shown;
  }
}

function sumWidths(columns: Column[]): number {
  return columns.reduce((total, column) => total + column.width, 0);
}

function isBlank(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/** The saved date of each scheduled visit (the definition's visit-date item), to place unscheduled visits. */
function casebookVisitDates(definition: StudyDefinition, subject: CasebookSubject): Record<string, string> {
  const dates: Record<string, string> = {};
  const source = definition.visitDate;
  if (!source) return dates;
  for (const form of subject.forms) {
    if (form.formKey !== source.form) continue;
    const value = form.values.get(source.item)?.value;
    if (isValidDate(value)) dates[form.visitKey] = value;
  }
  return dates;
}
