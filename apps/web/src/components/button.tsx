import type { ComponentProps } from 'react';
import styles from './button.module.css';

interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  /** Heights from prototype-spec §9: sm 3.6rem, md 4rem, lg 4.4rem. */
  size?: 'sm' | 'md' | 'lg';
  block?: boolean;
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
  const classes = [styles.button, styles[variant], styles[size], block ? styles.block : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return <button type={type} className={classes} {...props} />;
}
