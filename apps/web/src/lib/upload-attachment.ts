import { ATTACHMENT_MAX_BYTES, type Attachment } from '@cdms/contract';
import { apiRequest } from './api-client.ts';

/** Refused before sending: larger than the server takes. */
export class AttachmentTooLargeError extends Error {
  constructor() {
    super('too_large');
    this.name = 'AttachmentTooLargeError';
  }
}

/**
 * Uploads one attachment (multipart field `file`); the server decides its type from the bytes and
 * answers 415 for anything else. The document saved with its id (a guideline, task notice or training
 * module) owns it.
 */
export async function uploadAttachment(studyId: number, file: File): Promise<Attachment> {
  if (file.size > ATTACHMENT_MAX_BYTES) throw new AttachmentTooLargeError();
  const formData = new FormData();
  formData.append('file', file);
  return apiRequest<Attachment>(`/api/studies/${studyId}/attachments`, { method: 'POST', formData });
}

/** A size in bytes as people read it (KB below 1 MB). */
export function formatFileSize(size: number): string {
  if (size < 1024 * 1024) return `${Math.max(1, Math.round(size / 1024))} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
