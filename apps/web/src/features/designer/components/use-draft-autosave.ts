import type { DesignDraftConflict } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { draftConflictOf, useSaveDraft } from '../api/design-draft.ts';
import { forgetUnsentDraft, keepUnsentDraft } from '../lib/unsent-draft.ts';

/** How long the designer waits after the last edit before saving: a word typed is one save, not five. */
export const AUTOSAVE_DELAY_MS = 1200;
/** The waits between attempts while the server cannot be reached. */
const RETRY_DELAYS_MS = [3000, 6000, 15_000, 30_000];

export type AutosaveStatus =
  /** Everything is on the server (revision 0: nothing saved yet). */
  | { kind: 'saved'; revision: number; at: string | null }
  | { kind: 'waiting' }
  | { kind: 'saving' }
  /** The server could not be reached: the edits are kept in this browser and sent again. */
  | { kind: 'offline' }
  /** Someone saved the draft since its revision: nothing more is sent until the designer chooses. */
  | { kind: 'conflict'; message: string; conflict: DesignDraftConflict }
  /** The server refused the draft (too large, the study went live): sent again after the next edit. */
  | { kind: 'refused'; message: string };

/**
 * Saves the design draft as the designer goes (issue 48 item 6): a moment after the last edit, the
 * whole draft is sent with the revision it was made on; meanwhile it is kept in this browser
 * (`unsent-draft.ts`). The answer's revision is the base of the next save. A 409 stops the saving until
 * the designer chooses theirs or the other designer's (`resolve`); an unreachable server is tried
 * again, the waits growing.
 */
export function useDraftAutosave({
  studyId,
  present,
  saved,
  initialRevision,
  initialSavedAt,
  disabled,
  onSaved,
}: {
  studyId: number;
  present: StudyDefinition;
  saved: StudyDefinition;
  initialRevision: number;
  initialSavedAt: string | null;
  disabled: boolean;
  onSaved: (definition: StudyDefinition) => void;
}) {
  const save = useSaveDraft(studyId);
  const revision = useRef(initialRevision);
  const savedAt = useRef(initialSavedAt);
  const [status, setStatus] = useState<AutosaveStatus>({
    kind: 'saved',
    revision: initialRevision,
    at: initialSavedAt,
  });
  const [retry, setRetry] = useState(0);
  const failures = useRef(0);
  const inFlight = useRef(false);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const mutate = save.mutate;
  const blocked = status.kind === 'conflict';

  useEffect(() => {
    // `retry` is a dependency on purpose: a failed attempt is tried again by bumping it.
    void retry;
    if (disabled || blocked) return;
    if (present === saved) {
      // Undone back to what the server has: nothing is left to send (a save in flight answers itself).
      if (!inFlight.current)
        setStatus((current) =>
          current.kind === 'waiting' || current.kind === 'offline' || current.kind === 'refused'
            ? { kind: 'saved', revision: revision.current, at: savedAt.current }
            : current,
        );
      return;
    }
    setStatus((current) =>
      current.kind === 'offline' || current.kind === 'saving' ? current : { kind: 'waiting' },
    );
    const timer = window.setTimeout(
      () => {
        if (inFlight.current) return; // the answer to the save in flight runs this effect again
        const sent = present;
        keepUnsentDraft(studyId, { baseRevision: revision.current, definition: sent });
        inFlight.current = true;
        setStatus({ kind: 'saving' });
        mutate(
          { baseRevision: revision.current, definition: sent },
          {
            onSuccess: (answer) => {
              inFlight.current = false;
              failures.current = 0;
              revision.current = answer.revision;
              savedAt.current = answer.savedAt;
              setStatus({ kind: 'saved', revision: answer.revision, at: answer.savedAt });
              onSavedRef.current(sent);
            },
            onError: (error) => {
              inFlight.current = false;
              const conflict = draftConflictOf(error);
              if (conflict) {
                setStatus({ kind: 'conflict', ...conflict });
                return;
              }
              if (
                error instanceof ApiError &&
                (error.kind === 'network' || error.kind === 'timeout' || error.status >= 500)
              ) {
                const wait =
                  RETRY_DELAYS_MS[Math.min(failures.current, RETRY_DELAYS_MS.length - 1)] ?? 30_000;
                failures.current += 1;
                setStatus({ kind: 'offline' });
                window.setTimeout(() => setRetry((count) => count + 1), wait);
                return;
              }
              setStatus({ kind: 'refused', message: error.message });
            },
          },
        );
      },
      failures.current > 0 ? 0 : AUTOSAVE_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [present, saved, disabled, blocked, retry, studyId, mutate]);

  // Everything acknowledged: nothing of this draft needs keeping in the browser any more.
  useEffect(() => {
    if (present === saved && status.kind === 'saved') forgetUnsentDraft(studyId);
  }, [present, saved, status.kind, studyId]);

  return {
    status,
    /** The revision the next save is made on. */
    revision: () => revision.current,
    /**
     * After a conflict: `theirs` — the designer took the other draft (at `revision`), `mine` — their own
     * is saved over it (made on `revision` now, audited as any save).
     */
    resolve(choice: 'theirs' | 'mine', nextRevision: number, at: string | null) {
      revision.current = nextRevision;
      savedAt.current = at;
      setStatus(choice === 'theirs' ? { kind: 'saved', revision: nextRevision, at } : { kind: 'waiting' });
    },
    /** After a publish: the draft is gone, the next edit starts a new one. */
    reset() {
      revision.current = 0;
      savedAt.current = null;
      setStatus({ kind: 'saved', revision: 0, at: null });
    },
  };
}
