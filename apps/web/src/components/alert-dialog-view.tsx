import { AlertDialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import styles from './alert-dialog.module.css';
import type { PendingDialog } from './alert-dialog.tsx';
import { Button } from './button.tsx';

/** An alert or confirm dialog of `AlertDialogProvider`, loaded when the first one opens. */
export function AlertDialogView({
  dialog,
  zIndex,
  onSettle,
}: {
  dialog: PendingDialog;
  zIndex: number;
  onSettle: (dialog: PendingDialog, confirmed: boolean) => void;
}) {
  const { t } = useTranslation('ui');
  const { kind, options } = dialog;
  return (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        // Escape: an alert is acknowledged, a question is answered "no".
        if (!open) onSettle(dialog, kind === 'alert');
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} style={{ zIndex }} />
        <AlertDialog.Content className={styles.content} style={{ zIndex: zIndex + 1 }}>
          <AlertDialog.Title className={styles.title}>
            {options.title ?? (kind === 'alert' ? t('alert.title') : t('confirm.title'))}
          </AlertDialog.Title>
          <AlertDialog.Description className={styles.message}>{options.message}</AlertDialog.Description>
          <div className={styles.actions}>
            {kind === 'confirm' ? (
              <Button variant="secondary" onClick={() => onSettle(dialog, false)}>
                {options.cancelLabel ?? t('cancel')}
              </Button>
            ) : null}
            <Button onClick={() => onSettle(dialog, true)}>{options.confirmLabel ?? t('ok')}</Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
