import {
  cloneElement,
  createContext,
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  use,
  useCallback,
  useMemo,
  useRef,
  useState,
} from 'react';
// Only its type: the panel itself loads lazily below.
import type { SidePopupProps } from './side-popup-panel.tsx';

// Radix Popover and floating-ui (~25 kB gzip), loaded when a popup of the header first opens.
const SidePopupPanel = lazy(async () => ({
  default: (await import('./side-popup-panel.tsx')).SidePopupPanel,
}));

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

/** A 380px popup under the header (prototype-spec §9), in a `SidePopupGroup`. */
export function SidePopup(props: SidePopupProps) {
  const { id, trigger } = props;
  const group = use(SidePopupGroupContext);
  const [ownOpen, setOwnOpen] = useState(false);
  const open = group ? group.openId === id : ownOpen;
  const setOpen = (next: boolean) => (group ? group.setOpen(id, next) : setOwnOpen(next));
  // Radix Popover loads with the first popup opened (side-popup-panel.tsx); from then on this popup
  // is Radix's. Until then the trigger is the same button with the attributes Radix gives it.
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  const plainTrigger = cloneElement(trigger, {
    'aria-haspopup': 'dialog',
    'aria-expanded': open,
    'data-state': open ? 'open' : 'closed',
    onClick: () => setOpen(!open),
  });
  if (!used) return plainTrigger;
  return (
    <Suspense fallback={plainTrigger}>
      <SidePopupPanel
        {...props}
        open={open}
        setOpen={setOpen}
        openNow={() => (group ? group.openIdRef.current : null)}
      />
    </Suspense>
  );
}
