import { type ImpactKind, impactKinds, koreaDateTimeWithZone } from '@cdms/contract';
import type { Kysely } from 'kysely';
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
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language, Text } from '../http/language.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { readAmendment } from './read-amendment.ts';
import { readImpact, readImpactRows } from './read-impact.ts';

/**
 * A draft amendment's impact as a PDF (A4, issue 49 item 3), to file with the approval: the study, the
 * amendment (number, reason, versions, each site's approval date), the change set's lines, the last
 * analysis (when, by whom, current or not) with its counts per kind, then per kind its first rows —
 * subject, site, visit, form, item, before → after; the page has them all. "Page n of m" on every page.
 */

/** Rows printed per kind: the file stays a document to read, the page pages through the rest. */
const ROWS_PER_KIND = 200;

const WORDS = {
  title: { ko: '프로토콜 변경의 영향 분석', en: 'Amendment impact analysis' },
  study: { ko: '스터디', en: 'Study' },
  amendment: { ko: '프로토콜 변경', en: 'Amendment' },
  reason: { ko: '사유', en: 'Reason' },
  versions: { ko: '버전', en: 'Versions' },
  sites: { ko: '기관별 승인 시행일', en: "Sites' approval dates" },
  noDate: { ko: '아직 승인되지 않음', en: 'not approved yet' },
  analysis: { ko: '분석', en: 'Analysis' },
  analyzed: {
    ko: '{name}, {at} · 대상자 {subjects}명',
    en: '{name}, {at} · {subjects} subjects',
  },
  stale: {
    ko: '분석 뒤에 초안, 선언 또는 승인일이 바뀌었습니다: 다시 실행해야 합니다.',
    en: 'The draft, declarations or approval dates changed since: run it again.',
  },
  noAnalysis: { ko: '아직 영향 분석을 실행하지 않았습니다.', en: 'No impact analysis has been run yet.' },
  changes: { ko: '변경 세트', en: 'Change set' },
  noChanges: {
    ko: '다음 버전에서 아직 바뀐 것이 없습니다.',
    en: 'Nothing has changed in the next version yet.',
  },
  counts: { ko: '종류별 건수', en: 'Counts per kind' },
  kind: { ko: '종류', en: 'Kind' },
  rows: { ko: '건', en: 'Rows' },
  subjects: { ko: '대상자', en: 'Subjects' },
  subject: { ko: '대상자', en: 'Subject' },
  site: { ko: '기관', en: 'Site' },
  visit: { ko: '방문', en: 'Visit' },
  form: { ko: '양식', en: 'Form' },
  item: { ko: '항목', en: 'Item' },
  change: { ko: '전 → 후', en: 'Before → after' },
  more: { ko: '… 외 {count}건은 화면에서 볼 수 있습니다.', en: '… and {count} more on the page.' },
  printed: { ko: '출력', en: 'Printed' },
} satisfies Record<string, Text>;

/** The kinds as the page names them. */
const KIND_WORDS: Record<ImpactKind, Text> = {
  valueRenamed: { ko: '값이 옮겨짐', en: 'Values renamed' },
  valueConverted: { ko: '형식이 변환되는 값', en: 'Values converted' },
  valueRecoded: { ko: '코드가 바뀌는 값', en: 'Values recoded' },
  valueRetired: { ko: '입력에서 빠지는 값', en: 'Values retired' },
  formIncomplete: { ko: '입력 미완료가 되는 양식', en: 'Forms that become incomplete' },
  formComplete: { ko: '입력 완료가 되는 양식', en: 'Forms that become complete' },
  queryOpens: { ko: '열리는 쿼리', en: 'Queries that open' },
  queryCloses: { ko: '닫히는 쿼리', en: 'Queries that close' },
  derivedChanges: { ko: '바뀌는 계산값', en: 'Derived values that change' },
  sdvInvalidated: { ko: '무효가 되는 SDV', en: 'SDV invalidated' },
  signatureInvalidated: { ko: '무효가 되는 전자서명', en: 'Signatures invalidated' },
  heldFormTouched: { ko: '잠금·프리징된 양식', en: 'Frozen or locked forms touched' },
  siteNotInEffect: { ko: '승인 시행 전 기관의 대상자', en: 'Subjects at sites not yet in effect' },
};

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export async function renderImpactPdf(
  db: Kysely<Database>,
  studyId: number,
  amendmentId: number,
  language: Language,
  printedAt: Date,
): Promise<{ pdf: PDFKit.PDFDocument; fileName: string }> {
  const detail = await readAmendment(db, studyId, amendmentId, language);
  if (detail.amendment.status !== 'draft') throw new AppError(409, 'amendment_not_draft');
  const { impact } = await readImpact(db, studyId, amendmentId);
  const studyCode = await readStudyCode(db, studyId);
  const { amendment, changeSet } = detail;
  const say = (words: Text) => words[language];

  const doc = await openPdfPage({ Title: `${say(WORDS.title)} ${studyCode} ${amendment.number}` });

  const heading = (label: string) => writeBandHeading(doc, label);
  const row = (cells: string[], widths: number[], options: { bold?: boolean; shaded?: boolean } = {}) =>
    writeTableRow(doc, cells, widths, {
      fontSize: 8.5,
      ...(options.bold ? { bold: true } : {}),
      ...(options.shaded ? { firstFill: PDF_COLOR.headerFill } : {}),
    });

  const text = (value: string) =>
    doc.font(FONT.regular).fontSize(9.5).fillColor(PDF_COLOR.text).text(value, PAGE.left, doc.y, {
      width: CONTENT_WIDTH,
    });

  // ── The study and the amendment ──
  doc.font(FONT.bold).fontSize(16).fillColor(PDF_COLOR.heading).text(say(WORDS.title), PAGE.left, PAGE.top);
  doc.moveDown(0.6);
  const keyWidths = [120, CONTENT_WIDTH - 120];
  const sites = amendment.sites
    .map((site) => `${site.code} ${site.name}: ${site.effectiveOn ?? say(WORDS.noDate)}`)
    .join('\n');
  row([say(WORDS.study), studyCode], keyWidths, { shaded: true });
  row([say(WORDS.amendment), amendment.number], keyWidths, { shaded: true });
  row([say(WORDS.reason), amendment.reason], keyWidths, { shaded: true });
  row([say(WORDS.versions), `${amendment.fromVersion} → ${amendment.toVersion ?? '—'}`], keyWidths, {
    shaded: true,
  });
  row([say(WORDS.sites), sites || '—'], keyWidths, { shaded: true });
  row([say(WORDS.printed), koreaDateTimeWithZone(printedAt)], keyWidths, { shaded: true });
  doc.moveDown(1);

  // ── The change set ──
  heading(say(WORDS.changes));
  const lines = changeSet?.changes ?? [];
  if (lines.length === 0) text(say(WORDS.noChanges));
  for (const line of lines) row([line.text], [CONTENT_WIDTH]);
  doc.moveDown(1);

  // ── The analysis: counts, then each kind's first rows ──
  heading(say(WORDS.analysis));
  if (!impact) {
    text(say(WORDS.noAnalysis));
  } else {
    text(
      fill(say(WORDS.analyzed), {
        name: impact.computedBy,
        at: koreaDateTimeWithZone(impact.computedAt),
        subjects: impact.subjects,
      }),
    );
    if (!impact.current) text(say(WORDS.stale));
    doc.moveDown(0.6);
    const countWidths = [CONTENT_WIDTH - 160, 80, 80];
    row([say(WORDS.kind), say(WORDS.rows), say(WORDS.subjects)], countWidths, { bold: true, shaded: true });
    for (const kind of impactKinds) {
      const count = impact.byKind[kind] ?? { rows: 0, subjects: 0 };
      row([say(KIND_WORDS[kind]), String(count.rows), String(count.subjects)], countWidths);
    }
    doc.moveDown(1);
    const rowWidths = [62, 52, 80, 90, 90, CONTENT_WIDTH - 374];
    for (const kind of impactKinds) {
      const total = impact.byKind[kind]?.rows ?? 0;
      if (total === 0) continue;
      heading(`${say(KIND_WORDS[kind])} (${total})`);
      row(
        [
          say(WORDS.subject),
          say(WORDS.site),
          say(WORDS.visit),
          say(WORDS.form),
          say(WORDS.item),
          say(WORDS.change),
        ],
        rowWidths,
        { bold: true, shaded: true },
      );
      const page = await readImpactRows(
        db,
        studyId,
        amendmentId,
        { kind, page: 1, size: ROWS_PER_KIND },
        language,
      );
      for (const entry of page.rows)
        row(
          [
            entry.subjectId,
            entry.site,
            entry.visit ?? '—',
            entry.form ?? '—',
            entry.item ?? '—',
            `${valueText(entry.before)} → ${valueText(entry.after)}`,
          ],
          rowWidths,
        );
      if (page.total > page.rows.length)
        text(fill(say(WORDS.more), { count: page.total - page.rows.length }));
      doc.moveDown(0.8);
    }
  }

  writePageFooters(doc, `${studyCode} · ${amendment.number}`, (n, m) => fill(say(PAGE_OF_WORDS), { n, m }));
  doc.end();
  return { pdf: doc, fileName: `${studyCode}-${amendment.number}-impact.pdf` };
}
