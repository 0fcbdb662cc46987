import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './modal.module.css';
import { modalZIndex, useModalStack } from './modal-stack-provider.tsx';

interface ModalProps {
  /** The modal's name in the stack: `useModalStack().open(name)` shows it. */
  name: string;
  title: ReactNode;
  description?: ReactNode;
  /** sm 40rem, md 48rem, lg 80rem (tables such as an edit history). */
  width?: 'sm' | 'md' | 'lg';
  /** `side`: a full-height panel at the right edge (a query thread beside the form it is about). */
  placement?: 'centre' | 'side';
  children: ReactNode;
}

/**
 * A named modal dialog in the modal stack (prototype-spec §4). Radix Dialog traps focus, Escape
 * closes the top modal, and focus returns to where it was; its content unmounts when closed, so forms start empty
 * every time it opens.
 */
export function Modal({
  name,
  title,
  description,
  width = 'md',
  placement = 'centre',
  children,
}: ModalProps) {
  const { t } = useTranslation('ui');
  const { stack, close } = useModalStack();
  const index = stack.indexOf(name);
  return (
    <Dialog.Root
      open={index !== -1}
      onOpenChange={(open) => {
        if (!open) close(name);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} style={{ zIndex: modalZIndex(index) }} />
        <Dialog.Content
          className={`${styles.content} ${width === 'sm' ? styles.small : width === 'lg' ? styles.large : ''} ${placement === 'side' ? styles.side : ''}`}
          style={{ zIndex: modalZIndex(index) + 1 }}
          // Escape closes the top modal (spec §4), whichever dialog Radix hands the key to. Right after
          // a modal opens over another, Radix registers the new dialog's layer one render after focus
          // has moved into it; an Escape in between reaches the dialog underneath, which the stack
          // then refused to close, and neither closed.
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            close();
          }}
          // Without a description, say so explicitly (Radix would point at a missing element).
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label={t('close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          ) : null}
          <div className={styles.body}>{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
