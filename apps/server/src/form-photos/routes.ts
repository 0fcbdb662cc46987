import { FORM_PHOTO_MAX_BYTES, formPhotoSchema, paramIdSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { type UploadRule, uploadRefusals, withUpload } from '../uploads/receive-upload.ts';
import { readFormPhoto } from './read-form-photo.ts';
import { findPhotoTarget, uploadFormPhoto } from './upload-form-photo.ts';

/** As the form routes' keys (`subjects/routes.ts`); hyphens for unscheduled visits' keys. The definition decides. */
const key = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,49}$/);
const formParams = z.object({
  studyId: paramIdSchema,
  subjectId: paramIdSchema,
  visitKey: key,
  formKey: key,
});
const photoParams = z.object({ studyId: paramIdSchema, subjectId: paramIdSchema, photoId: paramIdSchema });
const photoUpload: UploadRule = {
  field: 'photo',
  maxBytes: FORM_PHOTO_MAX_BYTES,
  tooLarge: 'photo_too_large',
};

/**
 * Issue 19 item 2: the eardrum photo of a form — upload (multipart field `photo`; JPEG, PNG, HEIC by their
 * bytes; converted to JPEG without metadata) and reading it back (readers of the subject; audited).
 * Multipart is registered once by the image upload routes; this route asks for its own size limit.
 */
export function registerFormPhotoRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['form-photos'];

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/photos',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'Upload the photo of a form (multipart field "photo"; JPEG, PNG, HEIC; 413 too large, 415 another type)',
        consumes: ['multipart/form-data'],
        params: formParams,
        response: {
          201: formPhotoSchema,
          ...refusals({
            ...uploadRefusals(photoUpload, 'photo', 'not a JPEG, PNG or HEIC (`photo_type_not_allowed`)'),
            403: `The role may not enter the subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: 'The form has no photo item, or the subject has no such visit (`not_found`).',
            422: 'The image cannot be read (`photo_unreadable`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      // Streamed to a temporary file; sharp reads it from there (issue 43). The field is `photo`, and
      // the 400 for a missing file says so.
      // Who may write, and where, before a byte of the file is read.
      await findPhotoTarget(db, principalOf(request), request.params);
      const photo = await withUpload(request, photoUpload, (upload) =>
        uploadFormPhoto(db, principalOf(request), actorOf(request), {
          ...request.params,
          photo: { path: upload.path, size: upload.size },
        }),
      );
      return reply.status(201).send(photo);
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/photos/:photoId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "A subject's form photo (JPEG; readers of the subject; audited)",
        params: photoParams,
        response: {
          200: fileAnswer('The photo as JPEG.', ['image/jpeg']),
          ...refusals({ 404: 'No such photo of the subject (`not_found`).' }),
        },
      },
    },
    async (request, reply) => {
      const photo = await readFormPhoto(db, principalOf(request), actorOf(request), request.params);
      return reply
        .header('content-type', photo.contentType)
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${photo.sha256}"`)
        .send(photo.bytes);
    },
  );
}
