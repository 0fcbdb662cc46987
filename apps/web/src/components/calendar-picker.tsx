import type { Ref } from 'react';

/**
 * The browser's own calendar behind a date field's calendar button (the button calls
 * `ref.current.showPicker()`): a hidden date input, out of the tab order and unread, that greys out the
 * days outside min and max and offers the day picked. Clearing it offers nothing: the typed text stays
 * the field's value.
 */
export function CalendarPicker({
  ref,
  className,
  value,
  min,
  max,
  disabled,
  onPick,
}: {
  ref: Ref<HTMLInputElement>;
  className: string | undefined;
  /** '' or the YYYY-MM-DD day the field holds. */
  value: string;
  min?: string | undefined;
  max?: string | undefined;
  disabled?: boolean | undefined;
  onPick: (date: string) => void;
}) {
  return (
    <input
      ref={ref}
      className={className}
      type="date"
      tabIndex={-1}
      aria-hidden="true"
      value={value}
      min={min}
      max={max}
      disabled={disabled}
      onChange={(event) => {
        if (event.target.value !== '') onPick(event.target.value);
      }}
    />
  );
}
