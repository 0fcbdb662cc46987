import type { StudyMembership } from '@cdms/contract';
import type { FormDefinition, StudyDefinition, VisitDefinition } from '@cdms/study';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, Link, useBlocker } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { PageState, StudyAbilityPage } from '../../../components/study-ability-page.tsx';
import { useToast } from '../../../components/toast.tsx';
import { paths } from '../../../lib/paths.ts';
import {
  type CurrentDefinition,
  type DefinitionProblem,
  definitionProblemsOf,
} from '../../../lib/study-definition.ts';
import { fetchDesignDraft, useDesignDraft, usePublishDraft } from '../api/design-draft.ts';
import { useCurrentDefinition } from '../api/study-definition.ts';
import {
  type DesignerEdit,
  designerReducer,
  emptyDefinition,
  formsOfVisit,
  hasUnsavedChanges,
  initialDesignerState,
  labelIn,
  problemTarget,
  restoredDesignerState,
} from '../lib/designer-state.ts';
import { readUnsentDraft } from '../lib/unsent-draft.ts';
import { AutosaveState } from './autosave-state.tsx';
import { CodeListEditor } from './code-list-editor.tsx';
import styles from './designer.module.css';
import { DraftActivity } from './draft-activity.tsx';
import { DraftConflict } from './draft-conflict.tsx';
import { FORM_DIALOG, FormDialog } from './form-dialog.tsx';
import { FormEditor } from './form-editor.tsx';
import { headerId, ScheduleGrid } from './schedule-grid.tsx';
import { StudySettingsEditor } from './study-settings.tsx';
import { useDraftAutosave } from './use-draft-autosave.ts';
import { VISIT_DIALOG, VisitDialog } from './visit-dialog.tsx';

/**
 * `/design/:studyId`: the study designer for the study's designers (the `study.design` ability: DM
 * and ADMIN): the schedule — visits × forms — and, form by form, its sections and items with the
 * live preview (form-editor.tsx). The draft saves itself on the server as the designer goes
 * (use-draft-autosave.ts), is reviewed and approved (draft-activity.tsx), and is published at once.
 */
export function DesignerPage() {
  return (
    <StudyAbilityPage ability="study.design" namespace="designer">
      {(studyId, membership) => <Designer studyId={studyId} membership={membership} />}
    </StudyAbilityPage>
  );
}

function Designer({ studyId, membership }: { studyId: number; membership: StudyMembership }) {
  const { t } = useTranslation('designer');
  const live = membership.studyStatus !== 'design';
  const draft = useDesignDraft(studyId, true);
  // A live study's design changes only by an amendment: its draft is the amendment's next version,
  // and without an amendment drafted the design is read-only.
  const amendment = draft.data?.amendment ?? null;
  const readOnly = live && amendment === null;
  // A study in design that has published nothing has no definition to read yet (it would be a 404).
  const hasPublished = live || (draft.data !== undefined && draft.data.publishedVersion !== null);
  const current = useCurrentDefinition(studyId, hasPublished);
  // A design started in the browser while the study has none on the server yet.
  const [started, setStarted] = useState<StudyDefinition | null>(null);

  if ((hasPublished && current.isPending) || draft.isPending)
    return <PageState>{t('page.loading')}</PageState>;
  const failed = current.error ?? draft.error;
  if (failed)
    return (
      <PageState role="alert">
        <p>{errorText(failed)}</p>
        <Button
          variant="secondary"
          onClick={() => {
            void current.refetch();
            void draft.refetch();
          }}
        >
          {t('page.retry')}
        </Button>
      </PageState>
    );
  const serverDraft = draft.data?.draft ?? null;
  const initial =
    (serverDraft?.definition as StudyDefinition | undefined) ?? current.data?.definition ?? started;
  if (!initial)
    return (
      <PageState>
        <h2 className={styles.stateTitle}>{t('page.empty.title')}</h2>
        {readOnly ? (
          <p>{t('page.liveNotice')}</p>
        ) : (
          <>
            <p>{t('page.empty.text')}</p>
            <Button
              onClick={() =>
                setStarted(
                  emptyDefinition(membership.studyCode, {
                    ko: membership.studyTitle,
                    en: membership.studyTitleEn || membership.studyTitle,
                  }),
                )
              }
            >
              {t('page.empty.start')}
            </Button>
          </>
        )}
      </PageState>
    );
  return (
    <ScheduleEditor
      studyId={studyId}
      current={current.data ?? null}
      initial={initial}
      draft={serverDraft ? { revision: serverDraft.revision, savedAt: serverDraft.savedBy.at } : null}
      startedHere={serverDraft === null && !current.data}
      readOnly={readOnly}
      amendment={amendment}
      canAdminister={membership.abilities.includes('study.administer')}
    />
  );
}

type Editing = { kind: 'visit'; index: number | null } | { kind: 'form'; index: number | null } | null;

type View =
  | { kind: 'schedule' }
  | { kind: 'form'; index: number }
  | { kind: 'codeLists' }
  | { kind: 'settings' }
  | { kind: 'activity' };

/**
 * The first state of the editor: the server's draft (or published version), with the edits of it this
 * browser kept but never got to send, if any (`unsent-draft.ts`), still to save; a design started here
 * is still to save as a whole.
 */
function firstState(
  studyId: number,
  initial: StudyDefinition,
  draftRevision: number,
  startedHere: boolean,
  readOnly: boolean,
) {
  if (readOnly) return initialDesignerState(initial);
  const unsent = readUnsentDraft(studyId);
  if (unsent && unsent.baseRevision === draftRevision)
    return restoredDesignerState(initial, unsent.definition);
  if (startedHere) return { ...initialDesignerState(initial), saved: { ...initial } };
  return initialDesignerState(initial);
}

/** The schedule being edited, its history, the draft's saving, its publication and its problems. */
function ScheduleEditor({
  studyId,
  current,
  initial,
  draft,
  startedHere,
  readOnly,
  amendment,
  canAdminister,
}: {
  studyId: number;
  /** The published version (version, hash); null while the study has none. */
  current: CurrentDefinition | null;
  initial: StudyDefinition;
  /** The draft on the server; null while there is none (the next edit starts it). */
  draft: { revision: number; savedAt: string } | null;
  /** A design started in this browser: nothing of it is on the server yet. */
  startedHere: boolean;
  readOnly: boolean;
  /** The amendment this draft belongs to (a live study): published from its page, not from here. */
  amendment: { id: number; number: string } | null;
  canAdminister: boolean;
}) {
  const { t, i18n } = useTranslation('designer');
  const toast = useToast();
  const { confirm } = useAlert();
  const modals = useModalStack();
  const publish = usePublishDraft(studyId);
  const [state, dispatch] = useReducer(designerReducer, null, () =>
    firstState(studyId, initial, draft?.revision ?? 0, startedHere, readOnly),
  );
  const [restored] = useState(() => state.present !== state.saved && !startedHere);
  const autosave = useDraftAutosave({
    studyId,
    present: state.present,
    saved: state.saved,
    initialRevision: draft?.revision ?? 0,
    initialSavedAt: draft?.savedAt ?? null,
    disabled: readOnly,
    onSaved: (definition) => dispatch({ type: 'saved', definition }),
  });
  const [editing, setEditing] = useState<Editing>(null);
  // What is shown under the toolbar: the schedule, a form's editor (by its place in the definition's
  // forms) or the code lists.
  const [view, setView] = useState<View>({ kind: 'schedule' });
  const [saveError, setSaveError] = useState<string | null>(null);
  // The problems of a refused save, with the document they were found in: once it is edited, the
  // places they point at may have moved, so they are shown only while it is unchanged.
  const [report, setReport] = useState<{ sent: StudyDefinition; problems: DefinitionProblem[] } | null>(null);
  const definition = state.present;
  const unsaved = hasUnsavedChanges(state);
  const conflict = autosave.status.kind === 'conflict' ? autosave.status : null;
  const locked = readOnly || publish.isPending || conflict !== null;
  const savedRevision = autosave.revision();
  // Everything edited is on the server: what a publish, a review or an approval is made on.
  const allSaved = !unsaved && autosave.status.kind === 'saved';
  const problems = report?.sent === definition ? report.problems : [];
  const language = i18n.language.startsWith('en') ? 'en' : 'ko';

  const problemPlaces = useMemo(() => {
    const visits = new Set<number>();
    const forms = new Set<number>();
    for (const problem of problems) {
      const target = problemTarget(problem.path);
      if (target) (target.kind === 'visit' ? visits : forms).add(target.index);
    }
    return { visits, forms };
  }, [problems]);

  const edit = (action: DesignerEdit) => {
    if (!locked) dispatch(action);
  };

  useUndoKeys(locked || modals.stack.length > 0, dispatch);
  useLeaveWarning(unsaved && !readOnly, t, confirm);

  function publishNow() {
    const sent = definition;
    setSaveError(null);
    publish.mutate(savedRevision, {
      onSuccess: (published) => {
        dispatch({ type: 'load', definition: sent });
        autosave.reset();
        setReport(null);
        toast(t('publish.done', { version: published.version }), 'success');
      },
      onError: (error) => {
        const found = definitionProblemsOf(error);
        if (found.length > 0) setReport({ sent, problems: found });
        else setSaveError(errorText(error));
      },
    });
  }

  /** After a 409: the other designer's draft replaces this one (theirs), or this one is saved over it (mine). */
  async function resolveConflict(choice: 'theirs' | 'mine') {
    if (!conflict) return;
    if (choice === 'mine') {
      autosave.resolve('mine', conflict.conflict.revision, null);
      return;
    }
    const fresh = await fetchDesignDraft(studyId);
    const theirs = fresh.draft?.definition as StudyDefinition | undefined;
    if (!fresh.draft || !theirs) return;
    dispatch({ type: 'load', definition: theirs });
    autosave.resolve('theirs', fresh.draft.revision, fresh.draft.savedBy.at);
  }

  /** Asks before a removal (undo brings it back), then makes it. */
  async function removeAfterAsking(title: string, message: string, removal: DesignerEdit) {
    const confirmed = await confirm({
      title,
      message,
      confirmLabel: t('remove.confirm'),
      cancelLabel: t('remove.cancel'),
    });
    if (confirmed) edit(removal);
  }

  function removeVisit(index: number) {
    const visit = definition.visits[index];
    if (!visit) return;
    const visitName = labelIn(visit.label, language);
    const forms = formsOfVisit(definition, index).map((form) => labelIn(form.label, language));
    return removeAfterAsking(
      t('remove.title'),
      forms.length > 0
        ? t('remove.withForms', { visit: visitName, forms: forms.join(', ') })
        : t('remove.withoutForms', { visit: visitName }),
      { type: 'removeVisit', index },
    );
  }

  function removeForm(index: number) {
    const form = definition.forms[index];
    if (!form) return;
    const formName = labelIn(form.label, language);
    const visits = definition.visits
      .filter((visit) => visit.forms.includes(form.key))
      .map((visit) => labelIn(visit.label, language));
    return removeAfterAsking(
      t('removeForm.title'),
      visits.length > 0
        ? t('removeForm.withVisits', { form: formName, visits: visits.join(', ') })
        : t('removeForm.withoutVisits', { form: formName }),
      { type: 'removeForm', index },
    );
  }

  function open(next: NonNullable<Editing>) {
    setEditing(next);
    modals.open(next.kind === 'visit' ? VISIT_DIALOG : FORM_DIALOG);
  }

  function goTo(path: string) {
    const target = problemTarget(path);
    // A problem inside a form (its sections and items) leads to that form's editor.
    if (target?.kind === 'form' && /^\/forms\/\d+\/(sections|checks)\//.test(path)) {
      setView({ kind: 'form', index: target.index });
      return;
    }
    if (path.startsWith('/codeLists')) {
      setView({ kind: 'codeLists' });
      return;
    }
    const focusHeader = () => {
      const element = target && document.getElementById(headerId(target.kind, target.index));
      element?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      element?.focus();
    };
    if (view.kind === 'schedule') {
      focusHeader();
      return;
    }
    // Another view is open: the schedule is drawn again first.
    setView({ kind: 'schedule' });
    requestAnimationFrame(focusHeader);
  }

  function placeOf(path: string): string {
    const target = problemTarget(path);
    if (!target) return path === '' ? t('save.whole') : path;
    const element: VisitDefinition | FormDefinition | undefined =
      target.kind === 'visit' ? definition.visits[target.index] : definition.forms[target.index];
    return element ? `${labelIn(element.label, language)} (${element.key})` : path;
  }

  const editedVisit =
    editing?.kind === 'visit' && editing.index !== null ? definition.visits[editing.index] : null;
  const editedForm =
    editing?.kind === 'form' && editing.index !== null ? definition.forms[editing.index] : null;

  return (
    <>
      <div className={styles.versionRow}>
        <p className={styles.versionLine}>
          {current
            ? t('page.version', { version: current.version, hash: current.contentHash.slice(0, 12) })
            : t('page.unsavedVersion')}
        </p>
        {current ? (
          <Link
            className={buttonClassName({ variant: 'ghost', size: 'sm' })}
            to={generatePath(paths.designVersions, { studyId: String(studyId) })}
          >
            {t('page.compareVersions')}
          </Link>
        ) : null}
      </div>
      {readOnly ? (
        <p className={styles.liveNotice} role="note">
          {t('page.liveNotice')}{' '}
          <Link to={generatePath(paths.amendments, { studyId: String(studyId) })}>
            {t('page.amendments')}
          </Link>
        </p>
      ) : (
        <div className={styles.toolbar} role="toolbar" aria-label={t('toolbar.label')}>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => open({ kind: 'visit', index: null })}
            disabled={locked}
          >
            {t('toolbar.addVisit')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => open({ kind: 'form', index: null })}
            disabled={locked}
          >
            {t('toolbar.addForm')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-pressed={view.kind === 'codeLists'}
            onClick={() => setView(view.kind === 'codeLists' ? { kind: 'schedule' } : { kind: 'codeLists' })}
          >
            {t('toolbar.codeLists')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-pressed={view.kind === 'settings'}
            onClick={() => setView(view.kind === 'settings' ? { kind: 'schedule' } : { kind: 'settings' })}
          >
            {t('toolbar.settings')}
          </Button>
          <span className={styles.toolbarGap} />
          <Button
            variant="secondary"
            size="sm"
            disabled={locked || state.past.length === 0}
            aria-keyshortcuts="Control+Z"
            title={t('toolbar.shortcuts')}
            onClick={() => dispatch({ type: 'undo' })}
          >
            {t('toolbar.undo')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={locked || state.future.length === 0}
            aria-keyshortcuts="Control+Shift+Z"
            title={t('toolbar.shortcuts')}
            onClick={() => dispatch({ type: 'redo' })}
          >
            {t('toolbar.redo')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-pressed={view.kind === 'activity'}
            onClick={() => setView(view.kind === 'activity' ? { kind: 'schedule' } : { kind: 'activity' })}
          >
            {t('toolbar.activity')}
          </Button>
          <AutosaveState status={autosave.status} />
          {amendment ? (
            <Link
              className={buttonClassName({ size: 'sm' })}
              to={generatePath(paths.amendment, {
                studyId: String(studyId),
                amendmentId: String(amendment.id),
              })}
            >
              {t('toolbar.toAmendment', { number: amendment.number })}
            </Link>
          ) : (
            <Button size="sm" disabled={locked || !allSaved || savedRevision === 0} onClick={publishNow}>
              {publish.isPending ? t('toolbar.publishing') : t('toolbar.publish')}
            </Button>
          )}
        </div>
      )}
      {amendment ? (
        <p className={styles.liveNotice} role="note">
          {t('page.amending', { number: amendment.number })}
        </p>
      ) : null}
      {restored ? (
        <p className={styles.liveNotice} role="note">
          {t('autosave.restored')}
        </p>
      ) : null}
      {conflict ? (
        <DraftConflict
          message={conflict.message}
          conflict={conflict.conflict}
          onTakeTheirs={() => void resolveConflict('theirs')}
          onKeepMine={() => void resolveConflict('mine')}
        />
      ) : null}
      <FormAlert message={saveError} />
      {problems.length > 0 ? (
        <section
          className={styles.problems}
          role="alert"
          aria-label={t('save.problemsTitle', { count: problems.length })}
        >
          <h2 className={styles.problemsTitle}>{t('save.problemsTitle', { count: problems.length })}</h2>
          <p className={styles.hint}>{t('save.problemsHint')}</p>
          <ul className={styles.problemList}>
            {problems.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
              <li key={index}>
                <button type="button" className={styles.problemLink} onClick={() => goTo(problem.path)}>
                  <strong>{placeOf(problem.path)}</strong>
                  <span className={styles.problemPath}>{problem.path || '/'}</span>
                  <span>{problem.message}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.kind === 'form' && definition.forms[view.index] ? (
        <FormEditor
          definition={definition}
          formIndex={view.index}
          readOnly={locked}
          onEdit={edit}
          onClose={() => setView({ kind: 'schedule' })}
        />
      ) : view.kind === 'activity' ? (
        <DraftActivity
          studyId={studyId}
          definition={definition}
          revision={savedRevision}
          unsaved={!allSaved}
          canAdminister={canAdminister}
          reviews={amendment === null}
          onClose={() => setView({ kind: 'schedule' })}
        />
      ) : view.kind === 'settings' ? (
        <StudySettingsEditor
          definition={definition}
          readOnly={locked}
          onEdit={edit}
          onClose={() => setView({ kind: 'schedule' })}
        />
      ) : view.kind === 'codeLists' ? (
        <CodeListEditor
          definition={definition}
          readOnly={locked}
          onEdit={edit}
          onClose={() => setView({ kind: 'schedule' })}
        />
      ) : (
        <ScheduleGrid
          definition={definition}
          readOnly={locked}
          problems={problemPlaces}
          onEdit={edit}
          onEditVisit={(index) => open({ kind: 'visit', index })}
          onRemoveVisit={(index) => void removeVisit(index)}
          onRenameForm={(index) => open({ kind: 'form', index })}
          onRemoveForm={(index) => void removeForm(index)}
          onOpenForm={(index) => setView({ kind: 'form', index })}
        />
      )}
      {editing?.kind === 'visit' ? (
        <VisitDialog
          initial={editedVisit ?? null}
          takenKeys={definition.visits.map((visit) => visit.key)}
          visits={definition.visits}
          onApply={(visit) =>
            editing.index === null
              ? edit({ type: 'addVisit', visit })
              : edit({
                  type: 'updateVisit',
                  index: editing.index,
                  label: visit.label,
                  group: visit.group,
                  window: visit.window,
                })
          }
        />
      ) : null}
      {editing?.kind === 'form' ? (
        <FormDialog
          initial={editedForm ?? null}
          takenKeys={definition.forms.map((form) => form.key)}
          onApply={(form) =>
            editing.index === null
              ? edit({ type: 'addForm', form })
              : edit({ type: 'renameForm', index: editing.index, label: form.label })
          }
        />
      ) : null}
    </>
  );
}

/**
 * Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes, anywhere on the page but in a text field (which
 * keeps its own undo) and while a dialog is open.
 */
function useUndoKeys(disabled: boolean, dispatch: (action: { type: 'undo' | 'redo' }) => void) {
  useEffect(() => {
    if (disabled) return;
    function onKeyDown(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const typing =
        target?.isContentEditable ||
        target?.matches(
          'textarea, select, input:not([type="checkbox"]):not([type="radio"]):not([type="button"])',
        );
      if (typing) return;
      const key = event.key.toLowerCase();
      if (key === 'z') dispatch({ type: event.shiftKey ? 'redo' : 'undo' });
      else if (key === 'y' && !event.shiftKey) dispatch({ type: 'redo' });
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [disabled, dispatch]);
}

/** Unsaved changes: a question before leaving the page in the app, the browser's own on a reload. */
function useLeaveWarning(
  unsaved: boolean,
  t: (key: string) => string,
  confirm: ReturnType<typeof useAlert>['confirm'],
) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({
      name: 'designer-leave',
      title: t('leave.title'),
      message: t('leave.message'),
      confirmLabel: t('leave.confirm'),
      cancelLabel: t('leave.cancel'),
    }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirm, t]);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
