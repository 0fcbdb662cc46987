import { FORM_PHOTO_MAX_BYTES, formPhotoSchema, paramIdSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, authenticate, principalOf } from '../auth/authenticate.ts';
import type { App } from '../http/types.ts';
import { withUpload } from '../uploads/receive-upload.ts';
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

/**
 * Issue 19 item 2: the eardrum photo of a form — upload (multipart field `photo`; JPEG, PNG, HEIC by their
 * bytes; converted to JPEG without metadata) and reading it back (readers of the subject; audited).
 * Multipart is registered once by the image upload routes; this route asks for its own size limit.
 */
export function registerFormPhotoRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const preHandler = authenticate(context);
  const tags = ['form-photos'];

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/photos',
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Upload the photo of a form (multipart field "photo"; JPEG, PNG, HEIC; 413 too large, 415 another type)',
        consumes: ['multipart/form-data'],
        params: formParams,
        response: { 201: formPhotoSchema },
      },
    },
    async (request, reply) => {
      // Streamed to a temporary file; sharp reads it from there (issue 43). The field is `photo`, and
      // the 400 for a missing file says so.
      // Who may write, and where, before a byte of the file is read.
      await findPhotoTarget(db, principalOf(request), request.params);
      const rule = { field: 'photo', maxBytes: FORM_PHOTO_MAX_BYTES, tooLarge: 'photo_too_large' } as const;
      const photo = await withUpload(request, rule, (upload) =>
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
      preHandler,
      schema: {
        tags,
        summary: "A subject's form photo (JPEG; readers of the subject; audited)",
        params: photoParams,
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
