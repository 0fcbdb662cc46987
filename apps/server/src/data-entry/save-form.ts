import type { SaveFormRequest } from '@cdms/contract';
import {
  type FormValues,
  getFormLayout,
  isSigningForm,
  type StudyDefinition,
  validateFormValues,
} from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction, sendUnanswered } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { checkPhotoReferences } from '../form-photos/check-photo-references.ts';
import { AppError } from '../http/errors.ts';
import { findSubjectAndDefinitionInScope, type SubjectWithSite } from '../subjects/subject-access.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';
import { type WriteFormResult, writeForm } from './form-data.ts';
import { type FormSurroundings, formSurroundingsStatement, presentFormSurroundings } from './form-queries.ts';
import { subjectForSaveOf, subjectForSaveQuery } from './load-subject-for-save.ts';

/** What a save wrote, with the subject (its status as the save left it) and the definition it used. */
export interface SavedForm extends WriteFormResult {
  subject: SubjectWithSite;
  definition: StudyDefinition;
  definitionVersion: string;
  /** The form's queries, comments, holds and SDV as the save left them, when asked for (`withSurroundings`). */
  surroundings?: Promise<FormSurroundings>;
}

export interface SaveFormInput {
  studyId: number;
  subjectId: number;
  visitKey: string;
  formKey: string;
  request: { values: Record<string, unknown>; version: number; reasons?: SaveFormRequest['reasons'] };
  /**
   * Read what the form's answer shows beside its values (the API answers with the saved form): sent
   * with the audit append and COMMIT, it costs no round trip of its own.
   */
  withSurroundings?: boolean;
  /**
   * When the data were entered, for a writer that knows it (the living demo's dated story, as its
   * queries take `at`); a form saved for the first time records it as its first save. The API never sets it.
   */
  enteredAt?: Date;
}

/**
 * Saving a form as a person does it (the API and the demo seed both come through here), in one
 * transaction: the subject in scope with its row lock, and the permission → the values against
 * the definition (422 with per-item messages) → `writeForm` → what the answer shows beside the
 * form's values, if asked.
 */
export async function saveForm(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: SaveFormInput,
): Promise<SavedForm> {
  const { studyId, subjectId, visitKey, formKey, request } = input;
  return inTransaction(db, async (trx) => {
    // The subject in scope, read with its row lock: one writer per subject (writeForm).
    const inScope = findSubjectAndDefinitionInScope(trx, principal, studyId, subjectId, 'subject.write', {
      forUpdate: true,
    });
    // What the save reads about the subject (its forms and values, holds, queries…), sent right
    // behind that read, in the same round trip: the database runs it once the lock is held, so it
    // reads what the lock protects as of then. Nothing of it is answered before the subject is known
    // to be in scope: `writeForm` awaits it, and a refused save never does.
    const forSave = sendUnanswered(
      trx,
      subjectForSaveQuery(trx, { id: subjectId, study_id: studyId }, { visitKey, formKey }),
      subjectForSaveOf,
    );
    const { subject, ...current } = await inScope;
    // The signing form records the investigator's signature: only signing fills it.
    if (isSigningForm(current.definition, visitKey, formKey))
      throw new AppError(422, 'signature_form_read_only');
    if (!getFormLayout(current.definition, visitKey, formKey)) throw new AppError(404, 'not_found');
    await requireVisitOfSubject(trx, subject.id, visitKey);
    const validation = validateFormValues(current.definition, visitKey, formKey, request.values);
    if (!validation.valid) {
      throw new AppError(
        422,
        'invalid_values',
        {},
        {
          items: validation.errors.map((error) => ({
            path: error.path,
            code: error.code,
            message: error.message,
          })),
        },
      );
    }
    // A photo item names a photo uploaded for this very form (issue 19).
    await checkPhotoReferences(
      trx,
      current.definition,
      { subjectId, visitKey, formKey },
      request.values as FormValues,
    );
    const result = await writeForm(trx, {
      subject,
      subjectLocked: true,
      definition: current.definition,
      definitionVersion: current.version,
      visitKey,
      formKey,
      values: request.values as FormValues,
      expectedVersion: request.version,
      reasons: request.reasons ?? {},
      actor,
      forSave,
      enteredAt: input.enteredAt,
    });
    const saved: SavedForm = {
      ...result,
      subject,
      definition: current.definition,
      definitionVersion: current.version,
    };
    if (input.withSurroundings) {
      const statement = formSurroundingsStatement(trx, subject, visitKey, formKey, result.instance.id);
      // Awaited by the caller after COMMIT.
      saved.surroundings = sendUnanswered(trx, statement, presentFormSurroundings);
    }
    return saved;
  });
}
