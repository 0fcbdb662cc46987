import type { FormValues } from '@cdms/study';
import { readStoredJson, writeStoredJson } from '../../../lib/stored-json.ts';

// Unsaved edits of the subject detail page, kept in session storage under the spec's key
// (prototype-spec §3 "subject-detail-store") so that a reload or a visit to another form does not lose
// them. One entry per subject, visit and form. Session storage is per tab and ends with it: a draft
// never outlives the browser session, and nothing unsaved is written anywhere else.

export const DRAFT_STORAGE_KEY = 'subject-detail-store';

export interface FormDraft {
  /** The server version the edits started from; a save names it (a newer one on the server is a 409). */
  baseVersion: number;
  /** The saved values of that version: a 409 merge needs to know what the user changed. */
  baseValues: FormValues;
  values: FormValues;
  /** ISO time of the last edit. */
  updatedAt: string;
}

interface DraftFile {
  drafts: Record<string, FormDraft>;
}

export function draftKey(studyId: number, subjectPk: number, visitKey: string, formKey: string): string {
  return `${studyId}/${subjectPk}/${visitKey}/${formKey}`;
}

function isDraft(value: unknown): value is FormDraft {
  if (value === null || typeof value !== 'object') return false;
  const draft = value as Partial<FormDraft>;
  return (
    typeof draft.baseVersion === 'number' &&
    Number.isInteger(draft.baseVersion) &&
    draft.baseVersion >= 0 &&
    isValues(draft.baseValues) &&
    isValues(draft.values) &&
    typeof draft.updatedAt === 'string'
  );
}

function isValues(value: unknown): value is FormValues {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads the stored drafts; anything unreadable (another version's shape, hand edits) counts as none. */
function readFile(storage: Storage): DraftFile {
  const drafts = (readStoredJson(storage, DRAFT_STORAGE_KEY) as Partial<DraftFile> | null)?.drafts;
  if (!drafts || typeof drafts !== 'object') return { drafts: {} };
  const valid: Record<string, FormDraft> = {};
  for (const [key, draft] of Object.entries(drafts)) if (isDraft(draft)) valid[key] = draft;
  return { drafts: valid };
}

/** Storage full or disabled (private mode): the page still works, only without the reload safety net. */
function writeFile(storage: Storage, file: DraftFile): void {
  writeStoredJson(storage, DRAFT_STORAGE_KEY, Object.keys(file.drafts).length === 0 ? undefined : file);
}

export function readDraft(key: string, storage: Storage = sessionStorage): FormDraft | undefined {
  return readFile(storage).drafts[key];
}

export function writeDraft(key: string, draft: FormDraft, storage: Storage = sessionStorage): void {
  const file = readFile(storage);
  file.drafts[key] = draft;
  writeFile(storage, file);
}

export function removeDraft(key: string, storage: Storage = sessionStorage): void {
  const file = readFile(storage);
  if (!(key in file.drafts)) return;
  delete file.drafts[key];
  writeFile(storage, file);
}
