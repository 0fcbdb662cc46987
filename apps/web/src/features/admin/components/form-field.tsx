import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './admin-ui.module.css';

interface FieldProps {
  label: string;
  /** A key of the admin namespace (from `fieldErrorKeys`), or undefined when the value is fine. */
  error?: string | undefined;
  hint?: string;
  children: (ids: { inputId: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  after?: ReactNode;
}

/** A label, the input (given its ids), a hint and the field's error, wired for screen readers. */
export function Field({ label, error, hint, children, after }: FieldProps) {
  const { t } = useTranslation('admin');
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      {children({ inputId, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {after}
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {t(error)}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'tel' | 'password';
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  maxLength?: number;
  after?: ReactNode;
}

export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  after,
  type = 'text',
  ...input
}: TextFieldProps) {
  return (
    <Field label={label} error={error} {...(hint ? { hint } : {})} after={after}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          className={styles.input}
          type={type}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...input}
        />
      )}
    </Field>
  );
}
