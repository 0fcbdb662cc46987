import { AlertDialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import styles from './admin-ui.module.css';
import { ServerError } from './server-error.tsx';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
}

/**
 * "Are you sure?" before a change that is hard to take back. The confirm button is a plain button,
 * not AlertDialog.Action, so the dialog stays open while the request runs and can show its error.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  tone = 'danger',
  pending,
  error,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content className={styles.dialog}>
          <AlertDialog.Title className={styles.dialogTitle}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.dialogDescription}>
            {description}
          </AlertDialog.Description>
          <div className={styles.form}>
            <ServerError error={error} />
            <div className={styles.dialogActions}>
              <AlertDialog.Cancel className={styles.button} disabled={pending}>
                {t('actions.cancel')}
              </AlertDialog.Cancel>
              <button
                type="button"
                className={`${styles.button} ${tone === 'danger' ? styles.danger : styles.primary}`}
                disabled={pending}
                onClick={onConfirm}
              >
                {pending ? t('actions.saving') : confirmLabel}
              </button>
            </div>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
