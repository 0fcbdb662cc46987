import type { StudyDefinition } from '@cdms/study';

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
  try {
    window.localStorage.setItem(storageKey(studyId), JSON.stringify(unsent));
  } catch {
    // Storage full or refused (a private window): the server's copy and the leave warning remain.
  }
}

export function readUnsentDraft(studyId: number): UnsentDraft | null {
  try {
    const text = window.localStorage.getItem(storageKey(studyId));
    if (!text) return null;
    const value = JSON.parse(text) as Partial<UnsentDraft>;
    if (typeof value.baseRevision !== 'number' || typeof value.definition !== 'object' || !value.definition)
      return null;
    return { baseRevision: value.baseRevision, definition: value.definition as StudyDefinition };
  } catch {
    return null;
  }
}

export function forgetUnsentDraft(studyId: number): void {
  try {
    window.localStorage.removeItem(storageKey(studyId));
  } catch {
    // Nothing kept, nothing to forget.
  }
}
