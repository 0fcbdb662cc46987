import { type SubjectData, sampleSubject } from '@cdms/study';

/** A complete, consistent subject of the tympanic membrane perforation study (a fresh copy each call). */
export function sampleSubjectData(): SubjectData {
  return sampleSubject();
}
