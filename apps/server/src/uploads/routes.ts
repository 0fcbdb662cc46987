import { IMAGE_UPLOAD_MAX_BYTES, imageUploadResponseSchema } from '@cdms/contract';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { AppError } from '../http/errors.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { canWriteNotices } from '../notices/notices.ts';
import { UPLOADED_IMAGE_PATH } from '../notices/sanitize-html.ts';
import { sniffImageType } from './image-type.ts';
import { type UploadRule, uploadRefusals, withUpload } from './receive-upload.ts';

const imageUpload: UploadRule = {
  field: 'upload',
  maxBytes: IMAGE_UPLOAD_MAX_BYTES,
  tooLarge: 'image_too_large',
};

/** Image upload for the rich-text editor (multipart field `upload`) and serving the images. */
export async function registerUploadRoutes(app: App, context: AppContext): Promise<void> {
  const { db } = context.database;
  await app.register(fastifyMultipart, { limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 5 } });

  app.post(
    '/api/uploads/images',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['uploads'],
        summary: 'Upload an image (multipart field "upload"); answers {imageUrl}',
        consumes: ['multipart/form-data'],
        response: {
          201: imageUploadResponseSchema,
          ...refusals({
            ...uploadRefusals(
              imageUpload,
              'image',
              'not an image of an accepted type (`image_type_not_allowed`)',
            ),
            403: 'The caller writes no rich text (notices) anywhere (`forbidden`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // Only people who write rich text (notices) upload images.
      const mayWrite =
        principal.user.is_admin ||
        [...principal.studies.keys()].some((studyId) => canWriteNotices(principal, studyId));
      if (!mayWrite) throw new AppError(403, 'forbidden');
      // Streamed to a temporary file like every upload (issue 43); an image is at most 5 MB, so it is
      // then read whole and stored as one value.
      const imageId = await withUpload(request, imageUpload, async (upload) => {
        const bytes = await upload.read(0, upload.size);
        const contentType = sniffImageType(bytes);
        if (!contentType) throw new AppError(415, 'image_type_not_allowed');
        return inTransaction(db, async (trx) => {
          const row = await trx
            .insertInto('uploaded_images')
            .values({ content_type: contentType, bytes, size: bytes.length, uploaded_by: principal.user.id })
            .returning('id')
            .executeTakeFirstOrThrow();
          await recordAudit(trx, actorOf(request), {
            type: 'image.uploaded',
            entityType: 'image',
            entityId: row.id,
            after: { contentType, size: bytes.length, fileName: upload.fileName.slice(0, 200) },
          });
          return row.id;
        });
      });
      return reply.status(201).send({ imageUrl: `${UPLOADED_IMAGE_PATH}${imageId}` });
    },
  );

  app.get(
    '/api/uploads/images/:imageId',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['uploads'],
        summary: 'An uploaded image',
        params: z.object({ imageId: z.uuid() }),
        response: {
          200: fileAnswer('The image.', ['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
          ...refusals({ 404: 'No such image (`not_found`).' }),
        },
      },
    },
    async (request, reply) => {
      const image = await db
        .selectFrom('uploaded_images')
        .select(['content_type', 'bytes'])
        .where('id', '=', request.params.imageId)
        .executeTakeFirst();
      if (!image) throw new AppError(404, 'not_found');
      return reply
        .header('content-type', image.content_type)
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('content-disposition', 'inline')
        .send(Buffer.from(image.bytes));
    },
  );
}
