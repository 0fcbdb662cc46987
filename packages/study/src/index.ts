// The study-definition model and rules engine live here (issue "Study definition and form engine").
// This package imports nothing of ours and does no I/O, so the browser and the server run the same rules.
export const STUDY_PACKAGE_VERSION = '0.1.0';
