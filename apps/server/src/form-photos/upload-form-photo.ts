import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FormPhoto } from '@cdms/contract';
import { getFormLayout, photoReference } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { findSubjectInScope, type SubjectWithSite } from '../subjects/subject-access.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';
import { convertPhoto } from './convert-photo.ts';
import { sniffPhotoType } from './photo-type.ts';

export interface UploadFormPhotoInput {
  studyId: number;
  subjectId: number;
  visitKey: string;
  formKey: string;
  /** The photo: its bytes (the demo seed), or the temporary file an upload was streamed to (issue 43). */
  photo: Buffer | { path: string; size: number };
}

/**
 * The subject a photo of this form may be stored for, or the refusal: who may write the subject's data
 * (404 outside the reader's sites, 403 without the right), a form with a `photo` item at that visit, a
 * visit the subject has. The upload route asks before it reads a byte of the file, so a refused upload
 * costs no transfer to disk; `uploadFormPhoto` asks again for every other caller.
 */
export async function findPhotoTarget(
  db: Kysely<Database>,
  principal: Principal,
  target: Pick<UploadFormPhotoInput, 'studyId' | 'subjectId' | 'visitKey' | 'formKey'>,
): Promise<SubjectWithSite> {
  const { studyId, subjectId, visitKey, formKey } = target;
  const subject = await findSubjectInScope(db, principal, studyId, subjectId, 'subject.write');
  const current = await currentStudyDefinition(db, studyId);
  const layout = current ? getFormLayout(current.definition, visitKey, formKey) : undefined;
  const hasPhotoItem = layout
    ? [...layout.items.values()].some((place) => place.item.type === 'photo')
    : false;
  if (!hasPhotoItem) throw new AppError(404, 'not_found');
  // An unscheduled visit's photo only for a visit the subject has (as its form's save requires).
  await requireVisitOfSubject(db, subject.id, visitKey);
  return subject;
}

/**
 * Stores a photo for one form of one subject: who may write the subject's data (site scope, the training
 * gate), the form must hold a `photo` item at that visit, no freeze or lock over the form; the bytes' own
 * type (415 otherwise), converted to JPEG without metadata, hashed, stored and audited in one transaction.
 * The form's value is not changed here: the form's save sets the `photo` item to the returned reference
 * (audited with a reason when it replaces a saved one).
 */
export async function uploadFormPhoto(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: UploadFormPhotoInput,
): Promise<FormPhoto> {
  const { studyId, visitKey, formKey, photo } = input;
  const subject = await findPhotoTarget(db, principal, input);
  const uploadedSize = Buffer.isBuffer(photo) ? photo.length : photo.size;
  const head = Buffer.isBuffer(photo) ? photo : await readHead(photo.path);
  const sourceType = sniffPhotoType(head);
  if (!sourceType) throw new AppError(415, 'photo_type_not_allowed');
  // sharp reads a file itself (outside the JavaScript heap); only the converted JPEG is held.
  const converted = await convertPhoto(Buffer.isBuffer(photo) ? photo : photo.path, sourceType);
  const sha256 = createHash('sha256').update(converted.bytes).digest('hex');
  return inTransaction(db, async (trx) => {
    await refuseWriteUnderHolds(trx, 'form.save', subjectTarget(subject, { visitKey, formKey }));
    const row = await trx
      .insertInto('form_photos')
      .values({
        study_id: studyId,
        subject_id: subject.id,
        visit_key: visitKey,
        form_key: formKey,
        content_type: 'image/jpeg',
        width: converted.width,
        height: converted.height,
        size: converted.bytes.length,
        sha256,
        bytes: converted.bytes,
        source_type: sourceType,
        uploaded_by: principal.user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'form_photo.uploaded',
      entityType: 'form_photo',
      entityId: row.id,
      studyId,
      siteId: subject.site_id,
      subjectId: subject.id,
      after: {
        visitKey,
        formKey,
        sha256,
        sourceType,
        uploadedSize,
        size: converted.bytes.length,
        width: converted.width,
        height: converted.height,
      },
    });
    return {
      photoId: row.id,
      sha256,
      reference: photoReference(row.id, sha256),
      contentType: 'image/jpeg',
      width: converted.width,
      height: converted.height,
      size: converted.bytes.length,
      sourceType,
    };
  });
}

/** The first 4 KB of a file: enough for any photo's signature (a HEIF `ftyp` box is a few dozen bytes). */
async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
