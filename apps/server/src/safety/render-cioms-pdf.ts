import { koreaDateTimeWithZone, type SaeCriterion, saeCriteria } from '@cdms/contract';
import { CONTENT_WIDTH, FONT, openPdfPage, PAGE, PDF_COLOR, writePageFooters } from '../casebook/pdf-page.ts';
import type { Language } from '../http/language.ts';
import type { SaeCase } from './load-sae-case.ts';

type Words = Record<Language, string>;

const words = {
  title: {
    ko: '의심되는 이상사례 보고서 (CIOMS-I 양식)',
    en: 'Suspected adverse event report (CIOMS-I form)',
  },
  reaction: { ko: 'I. 이상사례 정보', en: 'I. Reaction information' },
  initials: { ko: '1. 대상자 이니셜', en: '1. Subject initials' },
  subject: { ko: '대상자 번호', en: 'Subject number' },
  site: { ko: '기관', en: 'Site' },
  onset: { ko: '4–6. 발현일', en: '4–6. Reaction onset' },
  ended: { ko: '종료일', en: 'End date' },
  term: { ko: '7. 이상사례', en: '7. Reaction' },
  narrative: {
    ko: '7 + 13. 경과 기술 (관련 검사 포함)',
    en: '7 + 13. Describe reaction(s) (including relevant tests)',
  },
  criteria: { ko: '8–12. 해당 항목 모두 표시', en: '8–12. Check all appropriate to the adverse event' },
  drugs: { ko: 'II. 의심 약물·기기 정보', en: 'II. Suspect drug(s) information' },
  suspect: {
    ko: '14. 의심 약물·기기 (이름, 용량, 경로, 기간)',
    en: '14. Suspect drug(s) and device (name, dose, route, dates)',
  },
  history: { ko: 'III. 병용 약물 및 병력', en: 'III. Concomitant drug(s) and history' },
  relevantHistory: { ko: '23. 기타 관련 병력', en: '23. Other relevant history' },
  outcome: { ko: '결과', en: 'Outcome' },
  source: { ko: 'IV. 보고 정보', en: 'IV. Manufacturer information' },
  study: { ko: '24a. 임상시험', en: '24a. Study' },
  reporter: { ko: '보고자', en: 'Reporter' },
  awareness: { ko: '24c. 인지 일시', en: '24c. Date received by the investigator' },
  reportSource: { ko: '24d. 보고 출처', en: '24d. Report source' },
  fromStudy: { ko: '임상시험', en: 'Study' },
  reportType: { ko: '25a. 보고 종류', en: '25a. Report type' },
  initial: { ko: '최초 보고', en: 'Initial' },
  followUp: { ko: '추적 보고 {n}', en: 'Follow-up {n}' },
  signature: { ko: '시험책임자 전자서명', en: "Investigator's electronic signature" },
  notSubmitted: { ko: '제출 전 (초안)', en: 'Not submitted (draft)' },
  acknowledged: { ko: '의뢰자 접수 확인', en: "Sponsor's acknowledgement" },
  none: { ko: '—', en: '—' },
  page: { ko: '{n} / {m} 쪽', en: 'Page {n} of {m}' },
} satisfies Record<string, Words>;

const criterionWords: Record<SaeCriterion, Words> = {
  death: { ko: '사망', en: 'Subject died' },
  lifeThreatening: { ko: '생명 위협', en: 'Life threatening' },
  hospitalisation: { ko: '입원 또는 입원 기간 연장', en: 'Involved or prolonged inpatient hospitalisation' },
  disability: {
    ko: '지속적 또는 중대한 장애·기능 저하',
    en: 'Involved persistent or significant disability or incapacity',
  },
  congenitalAnomaly: { ko: '선천적 기형', en: 'Congenital anomaly' },
  medicallyImportant: { ko: '기타 의학적으로 중요한 상황', en: 'Other medically important condition' },
};

/**
 * One version of an SAE report as a CIOMS-I-style form (Korean or English, by the request's language):
 * the boxes of the CIOMS form that a device trial's investigator fills — reaction, seriousness criteria
 * as check boxes, suspect drugs and device, relevant history, report source and type — then the PI's
 * electronic signature (name, time in KST, meaning) and the sponsor's acknowledgement. The casebook's page,
 * fonts (Noto Sans KR) and footer (casebook/pdf-page.ts).
 */
export async function renderCiomsPdf(sae: SaeCase, language: Language): Promise<PDFKit.PDFDocument> {
  const w = (entry: Words) => entry[language];
  const { version } = sae;
  const doc = await openPdfPage({
    Title: `${w(words.title)} — ${sae.subject.screeningNumber} #${sae.report.event_number}`,
  });
  const heading = (text: string) => {
    doc.moveDown(0.6);
    const y = doc.y;
    doc.rect(PAGE.left, y, CONTENT_WIDTH, 18).fill(PDF_COLOR.bandFill);
    doc
      .fillColor(PDF_COLOR.heading)
      .font(FONT.bold)
      .fontSize(10)
      .text(text, PAGE.left + 4, y + 4, { width: CONTENT_WIDTH - 8 });
    doc.moveDown(0.4);
  };
  const field = (label: string, value: string) => {
    doc
      .font(FONT.bold)
      .fontSize(8)
      .fillColor(PDF_COLOR.muted)
      .text(label, PAGE.left, doc.y, { width: CONTENT_WIDTH });
    doc
      .font(FONT.regular)
      .fontSize(10)
      .fillColor(PDF_COLOR.text)
      .text(value || w(words.none), { width: CONTENT_WIDTH });
    doc.moveDown(0.3);
  };
  /** Short fields side by side, in equal columns. */
  const row = (fields: [string, string][]) => {
    const top = doc.y;
    const width = CONTENT_WIDTH / fields.length;
    let bottom = top;
    fields.forEach(([label, value], index) => {
      const x = PAGE.left + index * width;
      doc
        .font(FONT.bold)
        .fontSize(8)
        .fillColor(PDF_COLOR.muted)
        .text(label, x, top, { width: width - 8 });
      doc
        .font(FONT.regular)
        .fontSize(10)
        .fillColor(PDF_COLOR.text)
        .text(value || w(words.none), x, doc.y, { width: width - 8 });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = PAGE.left;
    doc.y = bottom;
    doc.moveDown(0.3);
  };
  const joined = (...parts: string[]) => parts.filter((part) => part.trim() !== '').join(' · ');

  doc
    .font(FONT.bold)
    .fontSize(15)
    .fillColor(PDF_COLOR.heading)
    .text(w(words.title), { width: CONTENT_WIDTH });
  doc.font(FONT.regular).fontSize(9).fillColor(PDF_COLOR.muted);
  const type =
    version.kind === 'initial'
      ? w(words.initial)
      : w(words.followUp).replace('{n}', String(version.version - 1));
  doc.text(joined(sae.study.code, sae.study.protocolNumber, `${type} (v${version.version})`), {
    width: CONTENT_WIDTH,
  });

  heading(w(words.reaction));
  row([
    [w(words.initials), sae.subject.initials],
    [w(words.subject), sae.subject.screeningNumber],
    [w(words.site), `${sae.site.institutionNumber} ${sae.site.name}`],
  ]);
  row([
    [w(words.term), sae.event.term],
    [w(words.onset), sae.event.startDate],
    [w(words.ended), sae.event.endDate],
  ]);
  field(w(words.narrative), version.content.narrative);
  doc.font(FONT.bold).fontSize(8).fillColor(PDF_COLOR.muted).text(w(words.criteria), PAGE.left, doc.y);
  for (const criterion of saeCriteria) {
    const checked = version.content.criteria.includes(criterion);
    const y = doc.y + 2;
    doc.rect(PAGE.left, y, 8, 8).lineWidth(0.7).strokeColor(PDF_COLOR.text).stroke();
    if (checked)
      doc
        .font(FONT.bold)
        .fontSize(8)
        .fillColor(PDF_COLOR.text)
        .text('X', PAGE.left + 1.5, y - 0.5, { lineBreak: false });
    doc
      .font(FONT.regular)
      .fontSize(9.5)
      .fillColor(PDF_COLOR.text)
      .text(w(criterionWords[criterion]), PAGE.left + 14, y - 1.5, {
        width: CONTENT_WIDTH - 14,
      });
  }
  doc.moveDown(0.3);
  field(w(words.outcome), version.content.outcome);

  heading(w(words.drugs));
  field(w(words.suspect), version.content.suspectProducts.map((product) => `• ${product}`).join('\n'));

  heading(w(words.history));
  field(w(words.relevantHistory), version.content.relevantHistory);

  heading(w(words.source));
  field(
    w(words.study),
    joined(
      sae.study.protocolNumber,
      language === 'en' && sae.study.titleEn ? sae.study.titleEn : sae.study.title,
      sae.study.sponsor,
    ),
  );
  row([
    [w(words.reporter), version.content.reporter],
    [w(words.awareness), koreaDateTimeWithZone(sae.report.awareness_at)],
  ]);
  row([
    [w(words.reportSource), w(words.fromStudy)],
    [w(words.reportType), type],
  ]);

  heading(w(words.signature));
  if (version.submittedAt) {
    field(
      w(words.signature),
      `${version.submittedBy ?? ''} · ${koreaDateTimeWithZone(version.submittedAt)}\n${version.signatureMeaning ? version.signatureMeaning[language] : ''}`,
    );
  } else {
    field(w(words.signature), w(words.notSubmitted));
  }
  if (version.acknowledgedAt)
    field(
      w(words.acknowledged),
      `${version.acknowledgedBy ?? ''} · ${koreaDateTimeWithZone(version.acknowledgedAt)}`,
    );

  writePageFooters(
    doc,
    `${sae.study.code} · SAE ${sae.subject.screeningNumber} #${sae.report.event_number} v${version.version}`,
    (n, m) => w(words.page).replace('{n}', String(n)).replace('{m}', String(m)),
  );
  doc.end();
  return doc;
}
