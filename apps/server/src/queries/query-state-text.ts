import type { QueryStateValue } from '@cdms/contract';
import type { Text } from '../http/language.ts';

/**
 * A query's state as a reader names it. The casebook PDF and the query list file both print it,
 * and a monitor comparing the two must see the same word.
 */
export const queryStateText: Record<QueryStateValue, Text> = {
  open: { ko: '열림', en: 'Open' },
  answered: { ko: '답변됨', en: 'Answered' },
  closed: { ko: '종료', en: 'Closed' },
  cancelled: { ko: '취소', en: 'Cancelled' },
};
