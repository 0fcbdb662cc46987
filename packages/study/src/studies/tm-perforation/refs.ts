// References used by several forms. The screening date is the V1 visit date; windows of spec §5
// ("within 12 weeks of screening", …) are counted back from it.
export const SCREENING_DATE = 'v1.visitDay.visitDate';
export const CONSENT_DATE = 'consentScreening.consentScreening.consentDate';
