import { ATTACHMENT_ACCEPT, type Attachment } from '@cdms/contract';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AttachmentTooLargeError, formatFileSize, uploadAttachment } from '../lib/upload-attachment.ts';
import { useAlert } from './alert-dialog.tsx';
import styles from './attachment-picker.module.css';
import { Button } from './button.tsx';

/**
 * The files of a study document being written (a guideline, a training module): choose files, each
 * uploaded at once (the server types it by its bytes and refuses others), listed with its size and a
 * button to take it off. The document saved with the ids owns them. `inputId` is the id a label
 * names; `onUploading` tells the form to wait before it saves.
 */
export function AttachmentPicker({
  studyId,
  inputId,
  attachments,
  onChange,
  onUploading,
}: {
  studyId: number;
  inputId: string;
  attachments: readonly Attachment[];
  onChange: (change: (current: Attachment[]) => Attachment[]) => void;
  onUploading?: (uploading: boolean) => void;
}) {
  const { t } = useTranslation('ui');
  const alert = useAlert();
  const [uploading, setUploading] = useState(false);
  const fileInputRef = useRef<HTMLInputElement>(null);

  function busy(value: boolean) {
    setUploading(value);
    onUploading?.(value);
  }

  async function addFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    busy(true);
    try {
      for (const file of files) {
        try {
          const uploaded = await uploadAttachment(studyId, file);
          onChange((current) => [...current, uploaded]);
        } catch (error) {
          const message =
            error instanceof AttachmentTooLargeError
              ? t('attachments.tooLarge')
              : error instanceof Error
                ? error.message
                : String(error);
          await alert.alert({ message: `${file.name}: ${message}` });
        }
      }
    } finally {
      busy(false);
    }
  }

  return (
    <div className={styles.picker}>
      {/* The browser's own file button speaks the browser's language; ours speaks the page's. */}
      <input
        ref={fileInputRef}
        id={inputId}
        className={styles.visuallyHidden}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        disabled={uploading}
        onChange={(event) => void addFiles(event)}
      />
      <Button
        variant="secondary"
        size="sm"
        disabled={uploading}
        onClick={() => fileInputRef.current?.click()}
      >
        {t('attachments.chooseFiles')}
      </Button>
      <p className={styles.muted}>{uploading ? t('attachments.uploading') : t('attachments.hint')}</p>
      {attachments.length > 0 ? (
        <ul className={styles.fileList}>
          {attachments.map((file) => (
            <li key={file.id}>
              {file.fileName} <span className={styles.muted}>({formatFileSize(file.size)})</span>{' '}
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('attachments.removeNamed', { name: file.fileName })}
                onClick={() => onChange((current) => current.filter((other) => other.id !== file.id))}
              >
                {t('attachments.remove')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
