import type { ComponentProps } from 'react';
import styles from './button.module.css';

interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  /** Heights from prototype-spec §9: sm 3.6rem, md 4rem, lg 4.4rem. */
  size?: 'sm' | 'md' | 'lg';
  block?: boolean;
}

/** The button's classes, for a link that downloads a file and should look like the app's buttons. */
export function buttonClassName({
  variant = 'primary',
  size = 'md',
  block = false,
  className,
}: Pick<ButtonProps, 'variant' | 'size' | 'block' | 'className'>): string {
  return [styles.button, styles[variant], styles[size], block ? styles.block : '', className ?? '']
    .filter(Boolean)
    .join(' ');
}

/** The app's button. `type` defaults to "button" so a button inside a form never submits by accident. */
export function Button({
  variant = 'primary',
  size = 'md',
  block = false,
  type = 'button',
  className,
  ...props
}: ButtonProps) {
  return <button type={type} className={buttonClassName({ variant, size, block, className })} {...props} />;
}
