import type { StudyDefinition } from '@cdms/study';
import { readStoredJson, writeStoredJson } from '../../../lib/stored-json.ts';

/**
 * Edits of a design draft not yet acknowledged by the server, kept in this browser's storage until
 * they are: a dropped connection or a closed tab loses nothing. Kept with the revision they were made
 * on, so they are offered back only on that same draft (a newer one on the server is someone's work).
 */
export interface UnsentDraft {
  baseRevision: number;
  definition: StudyDefinition;
}

const storageKey = (studyId: number) => `cdms.designer.unsent.${studyId}`;

export function keepUnsentDraft(studyId: number, unsent: UnsentDraft): void {
  writeStoredJson(window.localStorage, storageKey(studyId), unsent);
}

export function readUnsentDraft(studyId: number): UnsentDraft | null {
  const value = readStoredJson(window.localStorage, storageKey(studyId)) as Partial<UnsentDraft> | null;
  if (typeof value?.baseRevision !== 'number' || typeof value.definition !== 'object' || !value.definition)
    return null;
  return { baseRevision: value.baseRevision, definition: value.definition as StudyDefinition };
}

export function forgetUnsentDraft(studyId: number): void {
  writeStoredJson(window.localStorage, storageKey(studyId), undefined);
}
