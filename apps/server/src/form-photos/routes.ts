import { FORM_PHOTO_MAX_BYTES, formPhotoSchema, paramIdSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, authenticate, principalOf } from '../auth/authenticate.ts';
import { AppError } from '../http/errors.ts';
import type { App } from '../http/types.ts';
import { readFormPhoto } from './read-form-photo.ts';
import { uploadFormPhoto } from './upload-form-photo.ts';

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
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      let file: Awaited<ReturnType<typeof request.file>>;
      try {
        file = await request.file({ limits: { fileSize: FORM_PHOTO_MAX_BYTES, files: 1, fields: 5 } });
      } catch {
        throw new AppError(400, 'upload_missing');
      }
      if (file?.fieldname !== 'photo') throw new AppError(400, 'upload_missing');
      const bytes = await file.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(413, 'photo_too_large', { megabytes: FORM_PHOTO_MAX_BYTES / 1024 / 1024 });
        throw new AppError(400, 'upload_incomplete');
      });
      const photo = await uploadFormPhoto(db, principalOf(request), actorOf(request), {
        ...request.params,
        bytes,
      });
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
