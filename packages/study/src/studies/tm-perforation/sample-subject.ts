import type { SubjectData } from '../../model/json-value.ts';
import sample from './sample-subject.json' with { type: 'json' };

// A complete, consistent subject of TMP-2026, kept as data in sample-subject.json: every form of every
// visit filled in, no required item missing, no check failing except the visit-date-before-today
// warnings. Tests start from it and change one thing; the web's form preview fills its forms with it.
// Its dates suit SAMPLE_TODAY.

/** The day the sample is evaluated on. */
export const SAMPLE_TODAY: string = sample.today;

// Typed here, so a value the file cannot hold (no JSON value) fails the type check.
const subject: SubjectData = sample.subject;

/** The sample subject: a fresh copy each call, so a test changes only its own. */
export function sampleSubject(): SubjectData {
  return JSON.parse(JSON.stringify(subject));
}
