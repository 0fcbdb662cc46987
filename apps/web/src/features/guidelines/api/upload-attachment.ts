import { ATTACHMENT_MAX_BYTES, type Attachment } from '@cdms/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** Refused before sending: larger than the server takes. */
export class AttachmentTooLargeError extends Error {
  constructor() {
    super('too_large');
    this.name = 'AttachmentTooLargeError';
  }
}

/**
 * Uploads one attachment (multipart field `file`); the server decides its type from the bytes and
 * answers 415 for anything else. The guideline saved with its id owns it.
 */
export async function uploadAttachment(studyId: number, file: File): Promise<Attachment> {
  if (file.size > ATTACHMENT_MAX_BYTES) throw new AttachmentTooLargeError();
  const formData = new FormData();
  formData.append('file', file);
  return apiRequest<Attachment>(`/api/studies/${studyId}/attachments`, { method: 'POST', formData });
}
