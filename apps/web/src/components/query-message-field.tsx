import { QUERY_TEXT_MAX } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { CountedTextArea } from './counted-text-area.tsx';

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
 * The text of a query message (raising, answering, closing, a bulk reason): a `CountedTextArea`
 * limited to QUERY_TEXT_MAX characters.
 */
export function QueryMessageField({ required = false, rows = 4, ...field }: QueryMessageFieldProps) {
  const { t } = useTranslation('queries');
  return (
    <CountedTextArea
      {...field}
      required={required}
      rows={rows}
      maxLength={QUERY_TEXT_MAX}
      counter={t('counter', { count: field.value.length, max: QUERY_TEXT_MAX })}
    />
  );
}
