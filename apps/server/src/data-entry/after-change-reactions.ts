import type { AfterChange } from '../after-change/form-change.ts';
import { codeVerbatimsAfterChange } from '../coding-state/code-after-change.ts';
import { postValueChangeMessagesAfterChange } from '../query-messages/value-change-messages.ts';
import { refreshLabResultsAfterChange } from '../read-model/refresh-lab-results.ts';
import { refreshSubjectFactsAfterChange } from '../read-model/refresh-subject-facts.ts';
import { startSaeReportsAfterChange } from '../sae-state/start-sae-reports.ts';
import { resetSdvAfterChange } from '../sdv-state/reset-sdv-on-change.ts';
import { invalidateSignatureAfterChange } from '../signature-state/invalidate-signature.ts';
import { writeFormStatusesAfterChange } from './form-statuses.ts';
import { updateSubjectStatusAfterChange } from './subject-status.ts';
import { syncSystemQueriesAfterChange } from './sync-system-queries.ts';

/**
 * What follows a form's change, in the save's transaction, in this order (every save, reset and
 * query-driven correction: `writeForm`). A feature that must follow saved data adds its reaction
 * (`AfterChange`, after-change/form-change.ts) here. The order is the audit trail's: each reaction
 * audits what it does, and later ones read what earlier ones did (`change.effects`) — the system
 * queries decide the forms' statuses, and the read model's refresh reads them all.
 */
export const AFTER_CHANGE: readonly AfterChange[] = [
  resetSdvAfterChange,
  invalidateSignatureAfterChange,
  postValueChangeMessagesAfterChange,
  syncSystemQueriesAfterChange,
  updateSubjectStatusAfterChange,
  writeFormStatusesAfterChange,
  codeVerbatimsAfterChange,
  refreshLabResultsAfterChange,
  refreshSubjectFactsAfterChange,
  startSaeReportsAfterChange,
];
