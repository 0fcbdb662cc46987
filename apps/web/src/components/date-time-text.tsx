import { formatDateTimeKst } from '../lib/date-time.ts';

const whole = { whiteSpace: 'nowrap' } as const;

/**
 * A KST time in a table cell that may wrap: it breaks between the date and the time, never inside
 * the date (browsers break after a hyphen, "2026-11-" / "27").
 */
export function DateTimeText({ value }: { value: string | null | undefined }) {
  const [date, time] = formatDateTimeKst(value).split(' ');
  if (!date) return null;
  return (
    <>
      <span style={whole}>{date}</span> <span style={whole}>{time}</span>
    </>
  );
}

/** A period of two dates, broken only around the tilde. */
export function DateRangeText({ start, end }: { start: string; end: string }) {
  return (
    <>
      <span style={whole}>{start}</span> ~ <span style={whole}>{end}</span>
    </>
  );
}
