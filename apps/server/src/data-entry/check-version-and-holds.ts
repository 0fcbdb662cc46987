import type { Transaction } from 'kysely';
import type { Database, FormInstanceRow, SubjectStatus } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderTheseHolds } from '../locks/holds-in-force.ts';
import type { WriteFormInput } from './form-data.ts';
import { formValues } from './form-values.ts';
import { formKeyOf, loadSubjectForSave, type SubjectForSave } from './load-subject-for-save.ts';

/** What the save's first step found: the subject as read under its lock, and the form's row. */
export interface FoundForSave extends SubjectForSave {
  /** The subject's status, read under its row lock: still current when the save writes its own. */
  statusBefore: SubjectStatus;
  /** `visitKey.formKey`, the key of `stored.instances`. */
  key: string;
  /** The form's row, if it was saved before. */
  current: FormInstanceRow | undefined;
}

/**
 * The save's first step: the subject's row lock, what the save reads about the subject, the holds
 * in force (423) and the form's version (409).
 */
export async function checkVersionAndHolds(
  trx: Transaction<Database>,
  input: WriteFormInput,
): Promise<FoundForSave> {
  const { subject, visitKey, formKey } = input;
  // One writer per subject at a time: a save also updates other forms (derived values, queries,
  // statuses), and two first saves of a form must not both create it. The subject row's lock
  // makes concurrent saves queue; the later one then sees the new version and gets 409.
  const locked = input.subjectLocked
    ? subject
    : await trx
        .selectFrom('subjects')
        .select(['deleted_at', 'status'])
        .where('id', '=', subject.id)
        .forUpdate()
        .executeTakeFirst();
  // Deleted while this request waited for the lock: the subject is gone for everyone.
  if (!locked || locked.deleted_at !== null) throw new AppError(404, 'not_found');
  const forSave = await (input.forSave ?? loadSubjectForSave(trx, subject, { visitKey, formKey }));
  const { stored, holds } = forSave;
  // A freeze or lock refuses data changes (423); system writes (signing, randomization, registration)
  // are guarded by their callers under their own names.
  if (!input.systemWrite) refuseWriteUnderTheseHolds('form.save', holds);
  const key = formKeyOf(visitKey, formKey);
  const current = stored.instances.get(key);
  const currentVersion = current?.version ?? 0;
  if (currentVersion !== input.expectedVersion) {
    throw new AppError(
      409,
      'version_conflict',
      {},
      {
        currentVersion,
        values: {
          ...formValues(stored.entered, visitKey, formKey),
          ...formValues(stored.derived, visitKey, formKey),
        },
      },
    );
  }
  return { ...forSave, statusBefore: locked.status, key, current };
}
