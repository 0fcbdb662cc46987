import styles from './counted-text-area.module.css';

/**
 * A labelled textarea limited to `maxLength` characters, with its counter and the problem under it,
 * both read out with the field (a query message, the reason of a change).
 */
export function CountedTextArea({
  id,
  label,
  value,
  onChange,
  maxLength,
  counter,
  problem,
  required = false,
  rows,
}: {
  /** The textarea's id; the counter and the problem take ids derived from it. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  /** The counter's text in the page's words (characters used of the maximum). */
  counter: string;
  /** Shown under the field as an alert, and marks it invalid. */
  problem: string | null;
  required?: boolean;
  rows: number;
}) {
  return (
    <>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={styles.textarea}
        rows={rows}
        maxLength={maxLength}
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
          {counter}
        </span>
      </div>
    </>
  );
}
