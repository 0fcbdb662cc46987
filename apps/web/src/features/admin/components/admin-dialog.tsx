import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './admin-ui.module.css';
import { ServerError } from './server-error.tsx';

interface AdminDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
  /** Wider than the usual form dialog, for rows of inputs side by side. */
  wide?: boolean;
}

/**
 * A modal form dialog (Radix Dialog: focus trap, Escape closes, focus returns to the opener).
 * Its content unmounts when closed, so a form inside starts empty every time it opens.
 */
export function AdminDialog({ open, onOpenChange, title, description, children, wide }: AdminDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={wide ? `${styles.dialog} ${styles.dialogWide}` : styles.dialog}>
          <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
          <Dialog.Description className={styles.dialogDescription}>{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The foot of an admin dialog's form: the save's error, Cancel, and the submit button, which is held
 * and says so while the save runs (a second press would send it twice).
 */
export function FormActions({
  error,
  pending,
  onCancel,
  submitLabel,
}: {
  error: unknown;
  pending: boolean;
  onCancel: () => void;
  /** What the submit button says; Save unless given. */
  submitLabel?: string;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <ServerError error={error} />
      <div className={styles.dialogActions}>
        <button type="button" className={styles.button} onClick={onCancel}>
          {t('actions.cancel')}
        </button>
        <button type="submit" className={`${styles.button} ${styles.primary}`} disabled={pending}>
          {pending ? t('actions.saving') : (submitLabel ?? t('actions.save'))}
        </button>
      </div>
    </>
  );
}
