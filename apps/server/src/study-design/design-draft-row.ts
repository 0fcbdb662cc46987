import type { DesignDraftConflict } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { describeDraftChanges } from './describe-draft-changes.ts';

export interface DesignDraftRow {
  revision: number;
  definition: unknown;
  based_on_hash: string | null;
  saved_by: number;
  saved_at: Date;
  /** The name of who saved it. */
  name: string;
}

/** The study's design draft and who saved it last; undefined while it has none. */
export async function designDraftRow(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<DesignDraftRow | undefined> {
  return db
    .selectFrom('study_design_drafts')
    .innerJoin('users', 'users.id', 'study_design_drafts.saved_by')
    .select([
      'study_design_drafts.revision',
      'study_design_drafts.definition',
      'study_design_drafts.based_on_hash',
      'study_design_drafts.saved_by',
      'study_design_drafts.saved_at',
      'users.name',
    ])
    .where('study_design_drafts.study_id', '=', studyId)
    .executeTakeFirst();
}

/**
 * The draft an action was asked on (a publish, a review, an approval name the revision the designer
 * saw): a 409 `design_draft_required` when there is none, `design_draft_changed` when it has moved on.
 */
export async function requireDraftRevision(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  revision: number,
  language: Language,
): Promise<DesignDraftRow> {
  const draft = await designDraftRow(db, studyId);
  if (!draft) throw new AppError(409, 'design_draft_required');
  if (draft.revision !== revision) throw draftChanged(draft, undefined, language);
  return draft;
}

/**
 * The 409 of an action made on an older revision of the draft: who saved which revision since, and —
 * when the designer's own document is known (`sent`, a save's) — how their draft differs from it:
 * what to merge, in the reader's language.
 */
export function draftChanged(draft: DesignDraftRow, sent: unknown, language: Language): AppError {
  const theirs = sent === undefined ? null : describeDraftChanges(sent, draft.definition);
  const conflict: DesignDraftConflict = {
    revision: draft.revision,
    savedBy: { userId: draft.saved_by, name: draft.name, at: draft.saved_at.toISOString() },
    lines: theirs ? theirs.lines[language] : [],
    lineCount: theirs ? theirs.lineCount : null,
  };
  return new AppError(409, 'design_draft_changed', { revision: draft.revision, name: draft.name }, conflict);
}
