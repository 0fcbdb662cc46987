import type { Attachment } from '@cdms/contract';

/** An attachment row as the API shows it (never the bytes). */
export function presentAttachment(row: {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date;
}): Attachment {
  return {
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    size: row.size,
    sha256: row.sha256,
    uploadedAt: row.created_at.toISOString(),
  };
}
