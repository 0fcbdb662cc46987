import { type ComponentProps, type ReactNode, useId } from 'react';
import styles from './text-field.module.css';

interface TextFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: ReactNode;
  /** Shown under the input in red; marks the input invalid for screen readers too. */
  error?: ReactNode;
  /** Help under the input (hidden while an error is shown). */
  hint?: ReactNode;
}

/** A labelled text input with its error or hint wired to it (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, className, ...inputProps }: TextFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className={`${styles.field} ${className ?? ''}`}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        {...inputProps}
      />
      {note ? (
        <div id={noteId} className={error ? styles.error : styles.hint}>
          {note}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A date typed as text, not a native date input: it reads YYYY-MM-DD whatever the browser's locale
 * (spec §5).
 */
export function DateTextField(props: TextFieldProps) {
  return (
    <TextField inputMode="numeric" placeholder="YYYY-MM-DD" maxLength={10} autoComplete="off" {...props} />
  );
}
