import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateText, isCalendarDate } from '../lib/date-text.ts';
import { CalendarIcon } from './calendar-icon.tsx';
import { CalendarPicker } from './calendar-picker.tsx';
import styles from './date-field.module.css';

interface DateFieldProps {
  /** '' or a YYYY-MM-DD day. */
  value: string;
  /** Called with '' (cleared) or a whole, real day within min and max; never with half a date. */
  onChange: (value: string) => void;
  /** The field's accessible name (filter fields show one label for a start/end pair). */
  label: string;
  min?: string | undefined;
  max?: string | undefined;
  /** The look of the text box (the filter panel's input class). */
  inputClassName?: string;
}

/**
 * A date filter typed as YYYY-MM-DD, whatever the browser's language (its own date input would show
 * "mm/dd/yyyy" or "연도. 월. 일."), with a button that opens the browser's calendar. Digits are
 * formatted as they come; a day that does not exist or falls outside min/max stays on screen marked
 * invalid and is not applied. The form's date item (crf-form) follows the same rules with its own
 * refusal messages.
 */
export function DateField({ value, onChange, label, min, max, inputClassName }: DateFieldProps) {
  const { t } = useTranslation('ui');
  const pickerRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setText(value);
  }

  const acceptable = (date: string) =>
    isCalendarDate(date) && (min === undefined || date >= min) && (max === undefined || date <= max);
  const invalid = text.length === 10 && !acceptable(text);

  const offer = (date: string) => {
    setText(date);
    if (!acceptable(date)) return;
    setShownValue(date);
    onChange(date);
  };

  return (
    <span className={styles.field}>
      <input
        className={`${inputClassName ?? ''} ${styles.text}`}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="YYYY-MM-DD"
        maxLength={10}
        aria-label={label}
        aria-invalid={invalid ? true : undefined}
        value={text}
        onChange={(event) => {
          const next = formatDateText(event.target.value);
          if (next === '') {
            setText('');
            setShownValue('');
            onChange('');
          } else if (next.length === 10) {
            offer(next);
          } else {
            setText(next);
          }
        }}
      />
      <button
        type="button"
        className={styles.calendarButton}
        aria-label={t('date.openCalendar', { label })}
        onClick={() => pickerRef.current?.showPicker?.()}
      >
        <CalendarIcon />
      </button>
      {/* The browser's calendar, opened by the button; it greys out days outside min and max. */}
      <CalendarPicker
        ref={pickerRef}
        className={styles.picker}
        value={shownValue}
        min={min}
        max={max}
        onPick={offer}
      />
    </span>
  );
}

export interface DateRangeFieldsProps {
  start: string;
  end: string;
  onStartChange: (value: string) => void;
  onEndChange: (value: string) => void;
  startLabel: string;
  endLabel: string;
  inputClassName?: string;
}

/**
 * A period as two date fields, "start ~ end": neither end can pass the other. Two siblings, not a
 * wrapper, so the fields sit in the caller's row as before.
 */
export function DateRangeFields({
  start,
  end,
  onStartChange,
  onEndChange,
  startLabel,
  endLabel,
  inputClassName,
}: DateRangeFieldsProps) {
  return (
    <>
      <DateField
        inputClassName={inputClassName}
        label={startLabel}
        value={start}
        max={end || undefined}
        onChange={onStartChange}
      />
      <span aria-hidden="true">~</span>
      <DateField
        inputClassName={inputClassName}
        label={endLabel}
        value={end}
        min={start || undefined}
        onChange={onEndChange}
      />
    </>
  );
}
