import type { CodeList } from '../../model/study-definition.ts';
import { t } from './helpers.ts';

// Code lists of the tympanic membrane perforation study. Lists marked "generic" are not given by the
// specification: they carry neutral standard labels that a study administrator edits for the protocol.

const list = (key: string, codes: [string, string, string][]): CodeList => ({
  key,
  codes: codes.map(([code, ko, en]) => ({ code, label: t(ko, en) })),
});

export const codeLists: CodeList[] = [
  list('gender', [
    ['M', '남', 'Male'],
    ['F', '여', 'Female'],
  ]),
  list('side', [
    ['L', '좌측', 'Left'],
    ['R', '우측', 'Right'],
  ]),
  list('perforationSite', [
    ['L', '좌측', 'Left'],
    ['R', '우측', 'Right'],
    ['B', '양측', 'Both'],
  ]),
  list('symptomLevel', [
    ['none', '없음', 'None'],
    ['mild', '경도', 'Mild'],
    ['moderate', '중등도', 'Moderate'],
    ['severe', '중증', 'Severe'],
  ]),
  list('dischargeColor', [
    ['transparent', '투명', 'Transparent'],
    ['colored', '유색', 'Coloured'],
  ]),
  list('dischargeSmell', [
    ['odorless', '무취', 'Odourless'],
    ['odorous', '악취', 'Odorous'],
  ]),
  list('normalAbnormal', [
    ['normal', '정상', 'Normal'],
    ['abnormal', '비정상', 'Abnormal'],
  ]),
  list('vitalSignResult', [
    ['normal', '정상', 'Normal'],
    ['abnormalNcs', '비정상/임상적으로 유의하지 않음', 'Abnormal, not clinically significant'],
    ['abnormalCs', '비정상/임상적으로 유의함', 'Abnormal, clinically significant'],
  ]),
  list('clinicalSignificance', [
    ['NCS', '임상적으로 유의하지 않음 (NCS)', 'Not clinically significant (NCS)'],
    ['CS', '임상적으로 유의함 (CS)', 'Clinically significant (CS)'],
  ]),
  list('pregnancyTestMethod', [
    ['serumHcg', '혈청 HCG', 'Serum HCG'],
    ['urineHcg', '소변 HCG', 'Urine HCG'],
    ['notPerformed', '시행하지 않음', 'Not performed'],
  ]),
  list('pregnancyResult', [
    ['negative', '음성', 'Negative'],
    ['positive', '양성', 'Positive'],
  ]),
  list('tympanogramType', [
    ['A', 'A형 (정상)', 'Type A (normal)'],
    ['As', 'As형', 'Type As'],
    ['Ad', 'Ad형', 'Type Ad'],
    ['B', 'B형', 'Type B'],
    ['C', 'C형', 'Type C'],
  ]),
  // Hearing severity by the pure tone average (spec §5 bands); derived, never typed.
  list('hearingSeverity', [
    ['001', '정상 (-10~15 dB)', 'Normal (-10 to 15 dB)'],
    ['002', '경미 난청 (16~25 dB)', 'Slight (16 to 25 dB)'],
    ['003', '경도~중등도 난청 (26~40 dB)', 'Mild to moderate (26 to 40 dB)'],
    ['004', '중등도 난청 (41~55 dB)', 'Moderate (41 to 55 dB)'],
    ['005', '중등고도 난청 (56~70 dB)', 'Moderate to severe (56 to 70 dB)'],
    ['006', '고도 난청 (71~90 dB)', 'Severe (71 to 90 dB)'],
    ['007', '심도 난청 (91 dB 이상)', 'Profound (91 dB or more)'],
  ]),
  // Issue 19: how the perforation was measured — traced on the photograph, or diameters typed in mm.
  list('measurementMethod', [
    ['traced', '사진 위 측정', 'Traced on the photo'],
    ['typed', '직경 입력', 'Diameters typed'],
  ]),
  list('healingEvaluation', [
    ['partialHealing', '부분 치유', 'Partial healing'],
    ['completeHealing', '완전 치유', 'Complete healing'],
    ['failToHeal', '치유 실패', 'Fail to heal'],
  ]),
  list('treatmentGroup', [
    ['treatment', '시험군', 'Treatment'],
    ['control', '대조군', 'Control'],
  ]),
  list('aeSeverity', [
    ['mild', '경증', 'Mild'],
    ['moderate', '중등증', 'Moderate'],
    ['severe', '중증', 'Severe'],
  ]),
  // Generic causality scale (WHO-UMC style); the administrator aligns it with the protocol.
  list('aeCausality', [
    ['certain', '명백히 관련 있음', 'Certain'],
    ['probable', '관련성 많음', 'Probable'],
    ['possible', '관련성 있을 수 있음', 'Possible'],
    ['unlikely', '관련성 적음', 'Unlikely'],
    ['notRelated', '관련 없음', 'Not related'],
    ['unassessable', '평가 불가', 'Unassessable'],
  ]),
  // Generic: action taken with the investigational device.
  list('aeDeviceAction', [
    ['none', '조치 없음', 'No action'],
    ['removed', '시험기기 제거', 'Device removed'],
    ['notApplicable', '해당 없음', 'Not applicable'],
    ['unknown', '알 수 없음', 'Unknown'],
  ]),
  // CDISC-style outcome terms.
  list('aeOutcome', [
    ['recovered', '회복됨', 'Recovered/resolved'],
    ['recovering', '회복 중', 'Recovering/resolving'],
    ['notRecovered', '회복되지 않음', 'Not recovered/not resolved'],
    ['recoveredWithSequelae', '후유증을 동반한 회복', 'Recovered with sequelae'],
    ['fatal', '사망', 'Fatal'],
    ['unknown', '알 수 없음', 'Unknown'],
  ]),
  list('route', [
    ['oral', '경구', 'Oral'],
    ['otic', '점이', 'Otic'],
    ['topical', '국소(외용)', 'Topical'],
    ['intravenous', '정맥', 'Intravenous'],
    ['intramuscular', '근육', 'Intramuscular'],
    ['subcutaneous', '피하', 'Subcutaneous'],
    ['inhalation', '흡입', 'Inhalation'],
    ['other', '기타', 'Other'],
  ]),
  list('completion', [
    ['Y', '예', 'Yes'],
    ['N', '아니오', 'No'],
    ['SF', '스크리닝 탈락', 'Screening failure'],
  ]),
  // Generic screening-failure reasons; the administrator edits them.
  list('screeningFailureReason', [
    ['inclusionNotMet', '선정기준 미충족', 'Inclusion criteria not met'],
    ['exclusionMet', '제외기준 해당', 'Exclusion criteria met'],
    ['consentWithdrawn', '동의 철회', 'Consent withdrawn'],
    ['other', '기타', 'Other'],
  ]),
  // Generic dropout reasons 001–010: the specification gives only the codes; a study administrator
  // replaces these neutral standard labels with the protocol's wording.
  list('dropoutReason', [
    ['001', '대상자의 동의 철회', 'Withdrawal of consent'],
    ['002', '이상사례', 'Adverse event'],
    ['003', '추적 관찰 실패', 'Lost to follow-up'],
    ['004', '임상시험계획서 위반', 'Protocol deviation'],
    ['005', '시험자의 판단', "Investigator's decision"],
    ['006', '선정/제외기준 위반 확인', 'Eligibility criteria not met (found after enrolment)'],
    ['007', '병용 금지 약물 또는 치료 사용', 'Prohibited medication or treatment'],
    ['008', '임신', 'Pregnancy'],
    ['009', '사망', 'Death'],
    ['010', '기타', 'Other'],
  ]),
  // Generic reasons for a visit date earlier than the entry date; the administrator edits them.
  list('visitDateDelayReason', [
    ['001', '원자료 확인 후 지연 입력', 'Entered late, after source document review'],
    ['002', '시스템 접속 불가', 'System not available at the visit'],
    ['099', '기타', 'Other'],
  ]),
];
