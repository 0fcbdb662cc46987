import { Popover } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './side-popup.module.css';

export interface SidePopupProps {
  id: string;
  title: ReactNode;
  /** The button that opens the popup (rendered as Radix Popover's trigger); it has no onClick of its own. */
  trigger: ReactElement<Record<string, unknown>>;
  /** The content; a function receives `close` for actions that should close the popup. */
  children: ReactNode | ((close: () => void) => ReactNode);
}

/** A `SidePopup`'s own props and the open state it keeps (in its group, or its own). */
interface SidePopupPanelProps extends SidePopupProps {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The popup of the group that is open now, if any (see onCloseAutoFocus). */
  openNow: () => string | null;
}

/**
 * The Radix Popover behind a `SidePopup` (side-popup.tsx), in a module of its own: Radix Popover
 * and the floating-ui that places it load when a header popup is first opened, not with every
 * signed-in page (issue 43 item 12).
 */
export function SidePopupPanel({
  id,
  title,
  trigger,
  children,
  open,
  setOpen,
  openNow,
}: SidePopupPanelProps) {
  const { t } = useTranslation('ui');
  const close = () => setOpen(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={styles.popup}
          align="end"
          sideOffset={10}
          collisionPadding={16}
          aria-labelledby={`${id}-title`}
          onCloseAutoFocus={(event) => {
            // Replaced by another popup: focus stays in the new one instead of going back to this
            // trigger (which would count as "focus outside" and close the new popup at once).
            const next = openNow();
            if (next && next !== id) event.preventDefault();
          }}
        >
          <div className={styles.header}>
            <h2 id={`${id}-title`} className={styles.title}>
              {title}
            </h2>
            <Popover.Close className={styles.close} aria-label={t('close')}>
              <span aria-hidden="true">×</span>
            </Popover.Close>
          </div>
          {typeof children === 'function' ? children(close) : children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
