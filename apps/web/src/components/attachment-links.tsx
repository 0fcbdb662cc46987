import { type Attachment, attachmentDownloadPath } from '@cdms/contract';
import { formatFileSize } from '../lib/upload-attachment.ts';

/** A document's files to download (a guideline, a training module): each by name, with its size. */
export function AttachmentLinks({
  studyId,
  attachments,
  className,
  sizeClassName,
}: {
  studyId: number;
  attachments: readonly Pick<Attachment, 'id' | 'fileName' | 'size'>[];
  className?: string;
  sizeClassName?: string;
}) {
  return (
    <ul className={className}>
      {attachments.map((file) => (
        <li key={file.id}>
          <a href={attachmentDownloadPath(studyId, file.id)} download={file.fileName}>
            {file.fileName}
          </a>{' '}
          <span className={sizeClassName}>({formatFileSize(file.size)})</span>
        </li>
      ))}
    </ul>
  );
}
