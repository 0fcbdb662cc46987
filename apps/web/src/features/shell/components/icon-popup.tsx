import type { ReactNode } from 'react';
import { SidePopup } from '../../../components/side-popup.tsx';
import styles from './shell-popups.module.css';

/**
 * A header popup opened by a round icon button (spec §2): the button is named by `buttonLabel`
 * (the popup's title unless told), also shown as its tooltip; `icon` is the content of its 24×24 SVG.
 */
export function IconPopup({
  id,
  title,
  buttonLabel = title,
  buttonClassName = styles.iconButton,
  icon,
  iconClassName,
  children,
}: {
  id: string;
  title: string;
  buttonLabel?: string;
  buttonClassName?: string;
  icon: ReactNode;
  iconClassName?: string;
  children: (close: () => void) => ReactNode;
}) {
  return (
    <SidePopup
      id={id}
      title={title}
      trigger={
        <button type="button" className={buttonClassName} aria-label={buttonLabel} title={buttonLabel}>
          <svg viewBox="0 0 24 24" aria-hidden="true" className={iconClassName}>
            {icon}
          </svg>
        </button>
      }
    >
      {children}
    </SidePopup>
  );
}
