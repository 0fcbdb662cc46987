import { Popover } from 'radix-ui';
import {
  createContext,
  type ReactElement,
  type ReactNode,
  type RefObject,
  use,
  useCallback,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import styles from './side-popup.module.css';

interface SidePopupGroupValue {
  openId: string | null;
  /** The open popup as of now (state lags a render behind inside Radix's event handlers). */
  openIdRef: RefObject<string | null>;
  setOpen: (id: string, open: boolean) => void;
}

const SidePopupGroupContext = createContext<SidePopupGroupValue | null>(null);

/** The header's popups share one slot: opening one replaces the one that was open (spec §2). */
export function SidePopupGroup({ children }: { children: ReactNode }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const openIdRef = useRef<string | null>(null);
  const setOpen = useCallback((id: string, open: boolean) => {
    const current = openIdRef.current;
    openIdRef.current = open ? id : current === id ? null : current;
    setOpenId(openIdRef.current);
  }, []);
  const value = useMemo(() => ({ openId, openIdRef, setOpen }), [openId, setOpen]);
  return <SidePopupGroupContext value={value}>{children}</SidePopupGroupContext>;
}

interface SidePopupProps {
  id: string;
  title: ReactNode;
  /** The button that opens the popup (rendered as Radix Popover's trigger). */
  trigger: ReactElement;
  /** The content; a function receives `close` for actions that should close the popup. */
  children: ReactNode | ((close: () => void) => ReactNode);
}

/** A 380px popup under the header (prototype-spec §9), in a `SidePopupGroup`. */
export function SidePopup({ id, title, trigger, children }: SidePopupProps) {
  const { t } = useTranslation('ui');
  const group = use(SidePopupGroupContext);
  const [ownOpen, setOwnOpen] = useState(false);
  const open = group ? group.openId === id : ownOpen;
  const setOpen = (next: boolean) => (group ? group.setOpen(id, next) : setOwnOpen(next));
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
            const next = group?.openIdRef.current;
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
