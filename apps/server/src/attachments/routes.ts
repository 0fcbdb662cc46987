import { Readable } from 'node:stream';
import { ATTACHMENT_MAX_BYTES, attachmentSchema, paramIdSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { authorize } from '../auth/authorize.ts';
import { AppError } from '../http/errors.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { canWriteNotices } from '../notices/notices.ts';
import { type UploadRule, uploadRefusals, withUpload } from '../uploads/receive-upload.ts';
import { readAttachmentChunks } from './attachment-chunks.ts';
import { downloadAttachment } from './download-attachment.ts';
import { uploadAttachment } from './upload-attachment.ts';

const attachmentParams = z.object({ studyId: paramIdSchema, attachmentId: z.uuid() });
const attachmentUpload: UploadRule = {
  field: 'file',
  maxBytes: ATTACHMENT_MAX_BYTES,
  tooLarge: 'attachment_too_large',
};

/** RFC 6266 / 5987: an ASCII fallback and the UTF-8 name (Korean file names survive). */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Attachments of study documents (issue 18): upload (multipart field `file`, by those who write
 * guidelines and task notices) and download (members, audited). Multipart is registered once by the
 * image upload routes; this route asks for its own size limit.
 */
export function registerAttachmentRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['attachments'];

  app.post(
    '/api/studies/:studyId/attachments',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Upload an attachment (multipart field "file"; PDF, DOCX, XLSX, PNG, JPEG, GIF, WebP)',
        consumes: ['multipart/form-data'],
        params: studyParams,
        response: {
          201: attachmentSchema,
          ...refusals({
            ...uploadRefusals(
              attachmentUpload,
              'file',
              'the file is empty or of a type not accepted (`attachment_type_not_allowed`)',
            ),
            403: 'The role may not attach files to study documents (`forbidden`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      authorize(principal, 'member', { studyId });
      if (!canWriteNotices(principal, studyId)) throw new AppError(403, 'forbidden');
      // Streamed to a temporary file, then into the database in chunks (issue 43).
      const attachment = await withUpload(request, attachmentUpload, (upload) =>
        uploadAttachment(db, actorOf(request), principal.user.id, studyId, {
          name: upload.fileName,
          source: upload,
        }),
      );
      return reply.status(201).send(attachment);
    },
  );

  app.get(
    '/api/studies/:studyId/attachments/:attachmentId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Download an attachment (members of the study; audited)',
        params: attachmentParams,
        response: {
          200: fileAnswer('The file, as uploaded.', ['application/octet-stream']),
          ...refusals({ 404: 'No such attachment, or not one the caller may read (`not_found`).' }),
        },
      },
    },
    async (request, reply) => {
      const file = await downloadAttachment(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.attachmentId,
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-length', file.size)
        .send(Readable.from(readAttachmentChunks(db, file.sha256)));
    },
  );
}
