import type { FormSdv } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { loadMarkableForm, type MarkableForm } from '../sdv-state/form-sdv.ts';
import { formSdvAfter, lockForSdv, type SdvSubject, subjectForSdv } from './sdv-marking.ts';

/**
 * What a command on the marks of one form (verify the form, verify items, unverify items) does
 * around its own change: the policy (subjectForSdv), then in one transaction the subject's lock and
 * the hold guard, the form as it is now, the `change`, and the subject's SDV counts in the read
 * model (progress, board, popup), which change with the marks; it answers the form's SDV after.
 */
export async function changeFormMarks(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  target: { subjectPk: number; visitKey: string; formKey: string },
  change: (trx: Transaction<Database>, sdv: SdvSubject, form: MarkableForm) => Promise<void>,
): Promise<FormSdv> {
  const { visitKey, formKey } = target;
  const sdv = await subjectForSdv(db, principal, studyId, target.subjectPk, visitKey, formKey);
  await inTransaction(db, async (trx) => {
    await lockForSdv(trx, sdv.subject, { visitKey, formKey });
    const form = await loadMarkableForm(trx, sdv.definition, sdv.subject.id, visitKey, formKey);
    await change(trx, sdv, form);
    await refreshSubjectFacts(trx, sdv.subject.id, {
      definition: sdv.definition,
      studyId: sdv.subject.study_id,
    });
  });
  return formSdvAfter(db, sdv, visitKey, formKey);
}
