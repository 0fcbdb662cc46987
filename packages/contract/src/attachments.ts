import { z } from 'zod';

/**
 * Issue 18: files attached to study documents (guidelines, task notices). The server decides the
 * type from the bytes, never from the name or the browser's claim: PDF, DOCX, XLSX, PNG, JPEG, GIF, WebP.
 */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const attachmentContentTypes = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
] as const;
export type AttachmentContentType = (typeof attachmentContentTypes)[number];

/** What the file picker offers (the server still sniffs the bytes). */
export const ATTACHMENT_ACCEPT = '.pdf,.docx,.xlsx,.png,.jpg,.jpeg,.gif,.webp';

export const attachmentSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  /** SHA-256 of the bytes, hex. */
  sha256: z.string(),
  uploadedAt: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** The download path of an attachment (a member's GET, audited). */
export function attachmentDownloadPath(studyId: number, attachmentId: string): string {
  return `/api/studies/${studyId}/attachments/${attachmentId}`;
}
