import type { DefinitionDiffLine } from '@cdms/contract';
import { describeDiff, diffDefinitions, type StudyDefinition, studyDefinitionShapeSchema } from '@cdms/study';

/** The lines a saved revision keeps of what it changed; the rest are counted. */
export const DRAFT_CHANGE_LINE_LIMIT = 20;

export interface DraftChanges {
  /** The first lines in each language, in the order the definition reads. */
  lines: { ko: DefinitionDiffLine[]; en: DefinitionDiffLine[] };
  /** How many lines in all; null when either side is not a definition's shape and cannot be compared. */
  lineCount: number | null;
}

/**
 * What a design draft's save changed, from the draft before it (or the published version, or nothing)
 * to the one saved, by the same comparison the versions page uses (`diffDefinitions`, `describeDiff`).
 * A draft in the middle of its edits may name what does not exist yet, so only the shape is asked of
 * it (`studyDefinitionShapeSchema`); a document that lacks even that is saved without its lines.
 */
export function describeDraftChanges(before: unknown, after: unknown): DraftChanges {
  const parsedBefore = studyDefinitionShapeSchema.safeParse(before);
  const parsedAfter = studyDefinitionShapeSchema.safeParse(after);
  if (!parsedBefore.success || !parsedAfter.success) return { lines: { ko: [], en: [] }, lineCount: null };
  const diff = diffDefinitions(parsedBefore.data as StudyDefinition, parsedAfter.data as StudyDefinition);
  const ko = describeDiff(diff, 'ko');
  const en = describeDiff(diff, 'en');
  return {
    lines: { ko: ko.slice(0, DRAFT_CHANGE_LINE_LIMIT), en: en.slice(0, DRAFT_CHANGE_LINE_LIMIT) },
    lineCount: en.length,
  };
}
