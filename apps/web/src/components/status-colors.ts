import type { SubjectStatus } from '@cdms/contract';

/**
 * The subject statuses' chart colours of spec §4 (drop-out red, complete blue, ongoing yellow,
 * screening teal, screening failure purple): the dashboard's doughnuts and the summary's bars.
 */
export const SUBJECT_STATUS_COLORS: Readonly<Record<SubjectStatus, string>> = {
  dropout: '#ef4444',
  complete: '#3b82f6',
  ongoing: '#facc15',
  screening: '#14b8a6',
  screening_failure: '#8b5cf6',
};
