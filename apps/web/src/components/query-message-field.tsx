import { QUERY_TEXT_MAX } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import styles from './query-message-field.module.css';

interface QueryMessageFieldProps {
  /** The textarea's id; the counter and the problem take ids derived from it. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field as an alert, and marks it invalid. */
  problem: string | null;
  required?: boolean;
  rows?: number;
}

/**
 * The text of a query message (raising, answering, closing, a bulk reason): a labelled textarea
 * limited to QUERY_TEXT_MAX characters, with its counter and the problem under it, both read out
 * with the field.
 */
export function QueryMessageField({
  id,
  label,
  value,
  onChange,
  problem,
  required = false,
  rows = 4,
}: QueryMessageFieldProps) {
  const { t } = useTranslation('queries');
  return (
    <>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={styles.textarea}
        rows={rows}
        maxLength={QUERY_TEXT_MAX}
        aria-required={required ? 'true' : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-counter${problem ? ` ${id}-problem` : ''}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <div className={styles.fieldFoot}>
        {problem ? (
          <span id={`${id}-problem`} className={styles.problem} role="alert">
            {problem}
          </span>
        ) : (
          <span />
        )}
        <span id={`${id}-counter`} className={styles.counter}>
          {t('counter', { count: value.length, max: QUERY_TEXT_MAX })}
        </span>
      </div>
    </>
  );
}
