import { APP_CODE_DIGITS } from '@cdms/contract';
import { TextField } from './text-field.tsx';

/**
 * A code from the authenticator app: digits only, as many as the app shows (`APP_CODE_DIGITS`),
 * offered to the browser and the phone as a one-time code. Setting up the second factor and signing
 * a casebook ask for the same thing, so they ask with the same field.
 */
export function AppCodeField({
  label,
  value,
  onChange,
  autoFocus = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={label}
      name="one-time-code"
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={APP_CODE_DIGITS}
      autoFocus={autoFocus}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
