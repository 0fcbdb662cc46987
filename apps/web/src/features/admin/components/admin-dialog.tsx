import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import styles from './admin-ui.module.css';

interface AdminDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
}

/**
 * A modal form dialog (Radix Dialog: focus trap, Escape closes, focus returns to the opener).
 * Its content unmounts when closed, so a form inside starts empty every time it opens.
 */
export function AdminDialog({ open, onOpenChange, title, description, children }: AdminDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog}>
          <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
          <Dialog.Description className={styles.dialogDescription}>{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
