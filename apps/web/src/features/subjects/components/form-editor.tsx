import {
  type AuditEntry,
  casebookPdfPath,
  type DatedLabRange,
  type FormDataResponse,
  isSigningForm,
  randomizationForm,
  refuseUnderHolds,
  todayInKorea,
} from '@cdms/contract';
import {
  AUDIOGRAM_EAR_SOURCE,
  AUDIOGRAM_FORM_KEY,
  audiogramLayout,
  changedItemKeys,
  enteredFormValues,
  evaluateSubject,
  type FormLayout,
  type FormValues,
  findFormEvaluation,
  getFormLayout,
  type ItemDefinition,
  isEmptyEntry,
  itemsNeedingReason,
  type Language,
  type SectionDefinition,
  type StudyDefinition,
  type SubjectData,
} from '@cdms/study';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { CrfForm } from '../../../components/crf-form/crf-form.tsx';
import type { ItemNote } from '../../../components/crf-form/crf-form-context.tsx';
import { createInputRefusals } from '../../../components/crf-form/input-refusals.ts';
import { createSubjectStore, type SubjectStore } from '../../../components/crf-form/subject-store.ts';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import {
  type AnswerCorrection,
  type ProposedValue,
  QUERY_THREAD_MODAL,
  QueryThreadPanel,
} from '../../../components/query-thread-panel.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { SdvMark } from '../../../components/record-marks.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { holdChangeToOffer, useHoldChange } from '../../../lib/holds-api.ts';
import {
  type FormAddress,
  useAddComment,
  useFormAudit,
  useReferencedForms,
  useResetForm,
  useSaveForm,
} from '../api/forms.ts';
import { type SdvChange, useSdvChange } from '../api/sdv.ts';
import { subjectKeys } from '../api/subject-query-keys.ts';
import { draftKey, readDraft, removeDraft, writeDraft } from '../lib/draft-store.ts';
import {
  describeValue,
  itemLabel,
  mergeOnConflict,
  toFormItemPath,
  topLevelKey,
} from '../lib/form-values.ts';
import { PtaAudiogram } from './audiogram.tsx';
import {
  COMMENT_MODAL,
  CONFLICT_MODAL,
  CommentModal,
  ConflictModal,
  type ConflictViewRow,
  FORM_HOLD_MODAL,
  HISTORY_MODAL,
  HistoryModal,
  type HistoryRow,
  ITEM_HISTORY_MODAL,
  REASON_MODAL,
  RESET_MODAL,
  ReasonModal,
  type ReasonRow,
  ResetModal,
  UNVERIFY_MODAL,
} from './detail-modals.tsx';
import { FormHoldBanner } from './form-hold-banner.tsx';
import { FormStatusIcon } from './form-status-icon.tsx';
import { ItemQueryButton } from './item-query-button.tsx';
import { ItemSdvControl } from './item-sdv-control.tsx';
import { LabResultFlag } from './lab-result-flag.tsx';
import { PrintView } from './print-view.tsx';
import { RandomizePanel } from './randomize-panel.tsx';
import { SignaturePanel, useSignature } from './signature-panel.tsx';
import { SignaturePrint } from './signature-print.tsx';
import styles from './subject-detail.module.css';
import { BaselinePhotoComparison, tympanicPhotoControls } from './tympanic-photo.tsx';
import { VerifyFormButton } from './verify-form-button.tsx';

interface Base {
  /** The server version the edits start from (a save names it). */
  version: number;
  /** The saved values of that version (entered and derived, as the server sent them). */
  values: FormValues;
}

interface Conflict {
  currentVersion: number;
  theirs: FormValues;
  merged: FormValues;
  rows: ConflictViewRow[];
}

/** The other forms a form's rules read: `visit.form.item` and `form.item` references. */
function referencedForms(
  layout: FormLayout | undefined,
  visitKey: string,
  formKey: string,
  definition: StudyDefinition,
) {
  if (!layout) return [];
  const found = new Map<string, { visitKey: string; formKey: string }>();
  for (const match of JSON.stringify(layout.form).matchAll(/"ref":"([^"]+)"/g)) {
    const parts = (match[1] ?? '').split('.');
    const target =
      parts.length === 3
        ? { visitKey: parts[0] ?? '', formKey: parts[1] ?? '' }
        : parts.length === 2
          ? { visitKey, formKey: parts[0] ?? '' }
          : null;
    if (!target || (target.visitKey === visitKey && target.formKey === formKey)) continue;
    if (!getFormLayout(definition, target.visitKey, target.formKey)) continue;
    found.set(`${target.visitKey}.${target.formKey}`, target);
  }
  return [...found.values()];
}

/** The server's values are JSON (the contract types them loosely as unknown). */
function jsonValues(values: Record<string, unknown>): FormValues {
  return values as FormValues;
}

/** A saved value as an answer's proposed value: JSON scalars as they are, anything else as its text. */
function asProposedValue(value: unknown): ProposedValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

function withForm(data: SubjectData, visitKey: string, formKey: string, values: FormValues): SubjectData {
  return { ...data, [visitKey]: { ...data[visitKey], [formKey]: values } };
}

export interface FormEditorProps {
  address: FormAddress;
  definition: StudyDefinition;
  layout: FormLayout;
  formData: FormDataResponse;
  language: Language;
  visitLabel: string;
  formUrl: (visitKey: string, formKey: string) => string;
  /** The toolbar's navigation part (board link, previous, next), rendered by the page. */
  navigation: React.ReactNode;
}

/**
 * One form of one subject: the generic renderer fed from the server, with save (reasons for change, 409
 * merge, refused values under their items), reset, history, comments, print, a draft kept in session
 * storage and a guard before leaving with unsaved changes. Mounted per subject, visit and form (keyed by
 * the page), so its state never leaks from one form to the next.
 */
export function FormEditor({
  address,
  definition,
  layout,
  formData,
  language,
  visitLabel,
  formUrl,
  navigation,
}: FormEditorProps) {
  const { t } = useTranslation(['subjects', 'signature', 'queries', 'sdv', 'holds']);
  const { studyId, subjectPk, visitKey, formKey } = address;
  const toast = useToast();
  const { alert, confirm } = useAlert();
  const modals = useModalStack();
  const storageKey = draftKey(studyId, subjectPk, visitKey, formKey);
  // The signing form is filled only by the PI's signature: it shows the signature instead of the
  // save buttons. Whether anything here may be edited is the server's word (`abilities.edit` is false
  // on the signing form, under a freeze or lock, and for roles that do not enter data).
  const signingForm = isSigningForm(visitKey, formKey);
  const canEdit = formData.abilities.edit;
  const queryClient = useQueryClient();
  // A save of signed data invalidates the signature: the editor says so before it happens.
  const signature = useSignature(studyId, subjectPk, canEdit);

  // The draft (if any) is read once, when the form opens: it wins over the server's values until it is
  // saved or discarded. A draft from an older version keeps that version, so saving it ends in the 409
  // dialog instead of silently overwriting someone's newer save.
  const [initial] = useState(() => {
    const draft = canEdit ? readDraft(storageKey) : undefined;
    const base: Base = draft
      ? { version: draft.baseVersion, values: draft.baseValues }
      : { version: formData.version, values: jsonValues(formData.values) };
    const subject = formData.subject;
    const data: SubjectData = withForm(
      // The consent form is filled at registration; the subject summary has its values, so rules that read
      // the consent date (age) work before the consent form itself is fetched.
      {
        consentScreening: {
          consentScreening: {
            consentDate: subject.consentDate,
            initials: subject.initials,
            screeningNumber: subject.subjectId,
          },
        },
      },
      visitKey,
      formKey,
      draft ? draft.values : jsonValues(formData.values),
    );
    return { base, store: createSubjectStore(data), restored: draft !== undefined };
  });
  const store: SubjectStore = initial.store;
  // Text the inputs refused (a future date, half a time): the form is not saved while there is any.
  const [refusals] = useState(createInputRefusals);
  const editorRef = useRef<HTMLDivElement>(null);
  const [base, setBase] = useState<Base>(initial.base);
  const [restored, setRestored] = useState(initial.restored);
  const [serverErrors, setServerErrors] = useState<{ path: string; message: string }[]>([]);
  const [reasonRows, setReasonRows] = useState<ReasonRow[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [commentSection, setCommentSection] = useState<SectionDefinition | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  /** The item (top-level key) whose own history is open. */
  const [historyItem, setHistoryItem] = useState<string | null>(null);
  /** The queries the thread panel shows: one item's (its top-level key), or the whole form's (null). */
  const [queryPanel, setQueryPanel] = useState<{ itemKey: string | null } | null>(null);
  /** A save started from the thread panel (an answer with a correction) waits for its outcome here. */
  const answerSave = useRef<((saved: FormDataResponse | null) => void) | null>(null);
  const settleAnswerSave = useCallback((saved: FormDataResponse | null) => {
    const resolve = answerSave.current;
    answerSave.current = null;
    resolve?.(saved);
  }, []);

  const save = useSaveForm(address);
  const sdvChange = useSdvChange(address);
  const holdChange = useHoldChange(studyId);
  /** The item whose SDV mark the un-verify dialog withdraws. */
  const [unverifyItem, setUnverifyItem] = useState<string | null>(null);
  /** The freeze or lock of this form the hold dialog places or lifts. */
  const [holdAction, setHoldAction] = useState<{ kind: 'frozen' | 'locked'; lift: boolean }>({
    kind: 'frozen',
    lift: false,
  });
  const reset = useResetForm(address);
  const addComment = useAddComment(address);

  // Values of the other forms the rules read (the consent date for age, the V1 visit date for windows).
  // The PTA form's audiogram also reads the treated ear, kept on another form.
  const audiogram = useMemo(
    () => (formKey === AUDIOGRAM_FORM_KEY ? audiogramLayout(definition) : null),
    [formKey, definition],
  );
  const references = useMemo(
    () => [
      ...referencedForms(layout, visitKey, formKey, definition),
      ...(formKey === AUDIOGRAM_FORM_KEY &&
      getFormLayout(definition, AUDIOGRAM_EAR_SOURCE.visitKey, AUDIOGRAM_EAR_SOURCE.formKey)
        ? [{ visitKey: AUDIOGRAM_EAR_SOURCE.visitKey, formKey: AUDIOGRAM_EAR_SOURCE.formKey }]
        : []),
    ],
    [layout, visitKey, formKey, definition],
  );
  const referenced = useReferencedForms(studyId, subjectPk, references);
  // Issue 19: the photo and tracing items; a follow-up's photo form that reads the baseline visit's photo
  // form (V4–V6 read V2's for the decrease) shows that baseline photo beside its own.
  const itemControl = useMemo(
    () => tympanicPhotoControls({ studyId, subjectPk, visitKey, formKey }),
    [studyId, subjectPk, visitKey, formKey],
  );
  const baselinePhoto = useMemo(() => {
    const hasPhoto = [...layout.items.values()].some((place) => place.item.type === 'photo');
    if (!hasPhoto) return null;
    const isBaseline = (key: string) =>
      definition.visits.find((visit) => visit.key === key)?.group === 'baseline';
    return (
      references.find(
        (ref) => ref.formKey === formKey && ref.visitKey !== visitKey && isBaseline(ref.visitKey),
      ) ?? null
    );
  }, [layout, references, formKey, visitKey, definition]);
  useEffect(() => {
    let data = store.getData();
    for (const response of referenced) {
      if (!response || (response.visitKey === visitKey && response.formKey === formKey)) continue;
      data = withForm(data, response.visitKey, response.formKey, jsonValues(response.values));
    }
    if (data !== store.getData()) store.replace(data);
  }, [referenced, store, visitKey, formKey]);

  const currentValues = useCallback(
    () => store.getFormValues(visitKey, formKey) ?? {},
    [store, visitKey, formKey],
  );
  const readDirty = useCallback(
    () => changedItemKeys(layout, base.values, currentValues()).length > 0,
    [layout, base.values, currentValues],
  );
  const dirty = useSyncExternalStore(store.subscribe, readDirty, readDirty);
  const readRefused = useCallback(() => refusals.list().length > 0, [refusals]);
  const refused = useSyncExternalStore(refusals.subscribe, readRefused, readRefused);
  // Refused text is unsaved work too: leaving would lose it.
  const unsaved = dirty || refused;

  // Unsaved edits go to session storage as they happen (a reload brings them back); none, no entry.
  useEffect(() => {
    if (!canEdit) return;
    const persist = () => {
      if (readDirty()) {
        writeDraft(storageKey, {
          baseVersion: base.version,
          baseValues: base.values,
          values: enteredFormValues(layout, currentValues()),
          updatedAt: new Date().toISOString(),
        });
      } else {
        removeDraft(storageKey);
      }
    };
    persist();
    return store.subscribe(persist);
  }, [canEdit, store, storageKey, base, layout, readDirty, currentValues]);

  // A freeze or lock placed while the form was open (the server refused a save with 423 and the form
  // was read again): the form shows the saved values it holds. The unsaved edit stays in session
  // storage as a draft, restored when the form opens editable again.
  const held = formData.holds.length > 0;
  useEffect(() => {
    if (!held || canEdit || !readDirty()) return;
    const saved = jsonValues(formData.values);
    setBase({ version: formData.version, values: saved });
    store.replace(withForm(store.getData(), visitKey, formKey, saved));
    setRestored(false);
  }, [held, canEdit, readDirty, formData.values, formData.version, store, visitKey, formKey]);

  // Leaving with unsaved changes: the browser's own prompt for reloads and closing the tab…
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  // …and ours for links inside the app (another form, the board, the side menu).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({
      name: 'subject-leave',
      title: t('detail.leave.title'),
      message: t('detail.leave.message'),
      confirmLabel: t('detail.leave.confirm'),
      cancelLabel: t('detail.leave.cancel'),
    }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirm, t]);

  /** Puts a form version in the store and makes it the base (after a save, reset or discard). */
  const loadSaved = useCallback(
    (version: number, values: FormValues) => {
      setBase({ version, values });
      store.replace(withForm(store.getData(), visitKey, formKey, values));
      removeDraft(storageKey);
      setRestored(false);
    },
    [store, visitKey, formKey, storageKey],
  );

  /** After the server changed this form itself (signature, randomization): its new values become the base. */
  const reloadFromServer = useCallback(async () => {
    const ownKey = subjectKeys.form(studyId, subjectPk, visitKey, formKey);
    await queryClient.refetchQueries({ queryKey: ownKey, exact: true });
    const fresh = queryClient.getQueryData<FormDataResponse>(ownKey);
    if (fresh) loadSaved(fresh.version, jsonValues(fresh.values));
  }, [queryClient, studyId, subjectPk, visitKey, formKey, loadSaved]);

  const describe = useCallback(
    (path: string, value: unknown) =>
      describeValue(definition, layout, path, value, language, (count) => t('detail.rows', { count })),
    [definition, layout, language, t],
  );

  /** Brings an item into view and puts the cursor in it (a save that cannot go ahead because of it). */
  const revealItem = useCallback((path: string) => {
    requestAnimationFrame(() => {
      const item = editorRef.current?.querySelector<HTMLElement>(`[data-item="${CSS.escape(path)}"]`);
      if (!item) return;
      item.scrollIntoView({ block: 'center' });
      item
        .querySelector<HTMLElement>('input:not([type="hidden"]):not([tabindex="-1"]), select, textarea')
        ?.focus({ preventScroll: true });
    });
  }, []);

  // A link to an item (the query list's subject column, `item=v1.form.key`) brings it into view.
  const [searchParams] = useSearchParams();
  const linkedItem = searchParams.get('item');
  useEffect(() => {
    if (linkedItem) revealItem(toFormItemPath(linkedItem, visitKey, formKey));
  }, [linkedItem, revealItem, visitKey, formKey]);

  /** Opens the reason dialog for these items (top-level keys), keeping reasons already typed. */
  function askReasons(itemKeys: readonly string[]) {
    const mine = currentValues();
    setReasonRows(
      itemKeys.map((itemKey) => ({
        itemKey,
        label: itemLabel(layout, itemKey, language),
        before: describe(itemKey, base.values[itemKey]),
        after: describe(itemKey, mine[itemKey]),
      })),
    );
    if (!modals.isOpen(REASON_MODAL)) modals.open(REASON_MODAL);
  }

  /** Closes the reason dialog if it is open (a save without reasons never opened it). */
  function closeReasons() {
    if (modals.isOpen(REASON_MODAL)) modals.close(REASON_MODAL);
  }

  function handleWriteError(error: unknown) {
    // A save for an answer ends here unless the server asks for more reasons (the dialog stays open).
    if (!(error instanceof ApiError && error.code === 'reason_required')) settleAnswerSave(null);
    if (!(error instanceof ApiError)) {
      toast(String(error), 'error');
      return;
    }
    const details = error.details as Record<string, unknown> | undefined;
    if (error.status === 423) {
      // A freeze or lock placed since the form was read (issue 15): the server's words, in the user's
      // language, then the form read again so its banner shows and its controls follow the hold.
      closeReasons();
      void alert({ message: error.message });
      refetchForm();
      return;
    }
    if (error.code === 'reason_required') {
      // The server has the last word: the items it names join those already in the dialog.
      const named = ((details?.items as string[] | undefined) ?? []).map((path) =>
        topLevelKey(toFormItemPath(path, visitKey, formKey)),
      );
      askReasons([...new Set([...reasonRows.map((row) => row.itemKey), ...named])]);
      return;
    }
    if (error.code === 'version_conflict') {
      const currentVersion = Number(details?.currentVersion ?? base.version);
      const theirs = (details?.values as FormValues | undefined) ?? {};
      const merge = mergeOnConflict(layout, base.values, currentValues(), theirs);
      closeReasons();
      setConflict({
        currentVersion,
        theirs,
        merged: merge.merged,
        rows: merge.rows.map((row) => ({
          itemKey: row.itemKey,
          label: itemLabel(layout, row.itemKey, language),
          mine: describe(row.itemKey, row.mine),
          theirs: describe(row.itemKey, row.theirs),
          changedBy: row.mineChanged && row.theirsChanged ? 'both' : row.mineChanged ? 'me' : 'other',
        })),
      });
      modals.open(CONFLICT_MODAL);
      return;
    }
    const items = (details?.items as { path?: unknown; message?: unknown }[] | undefined) ?? [];
    const itemErrors = items
      .filter((item) => typeof item?.path === 'string' && typeof item.message === 'string')
      .map((item) => ({
        path: toFormItemPath(item.path as string, visitKey, formKey),
        message: item.message as string,
      }));
    if (itemErrors.length > 0) {
      closeReasons();
      setServerErrors(itemErrors);
      toast(t('detail.saveFailed'), 'error');
      revealItem((itemErrors[0] as { path: string }).path);
      return;
    }
    toast(error.message, 'error');
  }

  /**
   * What stops a save before anything is sent: text an input refused, then the study's hard checks on
   * this form (the server would refuse the save with the same rule). The first such item, if any.
   */
  function firstBlockedItem(): string | undefined {
    const refusal = refusals.list()[0];
    if (refusal) return refusal.path;
    const evaluation = evaluateSubject(definition, store.getData(), { today: todayInKorea() });
    const hard = findFormEvaluation(evaluation, visitKey, formKey)?.checks.find(
      (check) => check.severity === 'hard',
    );
    return hard ? toFormItemPath(hard.path, visitKey, formKey) : undefined;
  }

  /**
   * The save button: blocked with the item in view while something on the form cannot be saved; the
   * reasons asked first when saved values change (the server refuses such a save without them);
   * otherwise sent.
   */
  function requestSave() {
    const blocked = firstBlockedItem();
    if (blocked !== undefined) {
      settleAnswerSave(null);
      if (modals.isOpen(QUERY_THREAD_MODAL)) modals.close(QUERY_THREAD_MODAL);
      toast(t('detail.saveBlocked'), 'error');
      revealItem(blocked);
      return;
    }
    const needing = itemsNeedingReason(layout, base.values, currentValues());
    if (needing.length > 0) {
      askReasons(needing);
      return;
    }
    setReasonRows([]);
    void send({});
  }

  async function send(reasons: Record<string, string>) {
    try {
      const response = await save.mutateAsync({ values: currentValues(), version: base.version, reasons });
      closeReasons();
      setReasonRows([]);
      setServerErrors([]);
      loadSaved(response.version, jsonValues(response.values));
      toast(t('detail.saved'), 'success');
      settleAnswerSave(response);
    } catch (error) {
      handleWriteError(error);
    }
  }

  // The reason dialog closed without a save (cancelled): the answer waiting for it is not sent.
  const reasonOpen = modals.stack.includes(REASON_MODAL);
  useEffect(() => {
    if (answerSave.current && !reasonOpen && !save.isPending) settleAnswerSave(null);
  }, [reasonOpen, save.isPending, settleAnswerSave]);

  /** The form's save for an answer that corrects the value: resolves with the saved form, or null. */
  function saveForAnswer(): Promise<FormDataResponse | null> {
    settleAnswerSave(null);
    return new Promise((resolve) => {
      answerSave.current = resolve;
      requestSave();
    });
  }

  async function doReset(reason: string) {
    try {
      const response = await reset.mutateAsync({ version: base.version, reason });
      modals.close(RESET_MODAL);
      setServerErrors([]);
      loadSaved(response.version, jsonValues(response.values));
      toast(t('reset.done'), 'success');
    } catch (error) {
      modals.close(RESET_MODAL);
      handleWriteError(error);
    }
  }

  /** The form read again (after a refusal by a hold placed meanwhile: its banner and abilities). */
  function refetchForm() {
    void queryClient.invalidateQueries({ queryKey: subjectKeys.form(studyId, subjectPk, visitKey, formKey) });
  }

  /**
   * A change of SDV marks. Null when done, or the server's refusal in the user's language (for the
   * un-verify dialog); outside the dialog the refusal is a toast, a hold's (423) an alert.
   */
  async function changeSdv(change: SdvChange, inDialog = false): Promise<string | null> {
    try {
      await sdvChange.mutateAsync(change);
      if (change.action === 'verifyForm') toast(t('sdv:form.verified'), 'success');
      if (change.action === 'unverify') toast(t('sdv:item.unverified'), 'success');
      return null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError && error.status === 423) {
        refetchForm();
        if (!inDialog) void alert({ message });
      } else if (!inDialog) {
        toast(message, 'error');
      }
      return message;
    }
  }

  /** Freeze, lock, unfreeze or unlock this form with a reason; null when done, else the refusal. */
  async function changeHold(reason: string): Promise<string | null> {
    try {
      const request = {
        kind: holdAction.kind,
        target: { level: 'form' as const, subjectPk, visitKey, formKey },
        reason,
      };
      await holdChange.mutateAsync({ action: holdAction.lift ? 'lift' : 'place', request });
      toast(t(`holds:done.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`), 'success');
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  function openHoldDialog(kind: 'frozen' | 'locked', lift: boolean) {
    setHoldAction({ kind, lift });
    modals.open(FORM_HOLD_MODAL);
  }

  async function discard() {
    const ok = await confirm({ message: t('detail.discardConfirm'), confirmLabel: t('detail.discard') });
    if (ok) loadSaved(formData.version, jsonValues(formData.values));
  }

  // Server queries (open or answered) and refused values, under their items.
  const itemNotes = useMemo(() => {
    const notes = new Map<string, ItemNote[]>();
    const add = (path: string, note: ItemNote) => notes.set(path, [...(notes.get(path) ?? []), note]);
    for (const query of formData.queries) {
      if (query.status !== 'open' && query.status !== 'answered') continue;
      add(toFormItemPath(query.itemPath, visitKey, formKey), {
        id: `query-${query.id}`,
        tone: 'query',
        label: t('detail.query', { status: t(`detail.queryStatus.${query.status}`) }),
        text: query.message[language],
      });
    }
    for (const [index, error] of serverErrors.entries()) {
      add(error.path, {
        id: `error-${index}`,
        tone: 'hard',
        label: t('detail.serverError'),
        text: error.message,
      });
    }
    return notes;
  }, [formData.queries, serverErrors, visitKey, formKey, language, t]);

  const commentCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const comment of formData.comments)
      counts.set(comment.sectionKey, (counts.get(comment.sectionKey) ?? 0) + 1);
    return counts;
  }, [formData.comments]);

  const commentLink = useCallback(
    (section: SectionDefinition) => {
      const count = commentCounts.get(section.key) ?? 0;
      return (
        <button
          type="button"
          className={styles.commentLink}
          onClick={() => {
            setCommentSection(section);
            modals.open(COMMENT_MODAL);
          }}
        >
          {count > 0 ? t('detail.commentCount', { count }) : t('detail.comment')}
        </button>
      );
    },
    [commentCounts, modals, t],
  );

  const audit = useFormAudit(address, historyOpen);
  const itemAudit = useFormAudit(address, historyItem !== null, historyItem ?? undefined);
  /** History entries as rows: the item by its label, old → new as the form shows them (codes by label). */
  const historyRowsOf = useCallback(
    (entries: readonly AuditEntry[] | undefined): HistoryRow[] | undefined =>
      entries?.map((entry) => {
        const path = entry.itemPath ? toFormItemPath(entry.itemPath, visitKey, formKey) : '';
        const isItem = entry.type === 'data.item_changed';
        // Audit types are dotted (`data.form_reset`); translation keys use "_" (a dot nests keys).
        const typeLabel = t(`history.types.${entry.type.replaceAll('.', '_')}`, { defaultValue: entry.type });
        const sideValue = (side: unknown) =>
          side && typeof side === 'object' && 'value' in side ? (side as { value: unknown }).value : null;
        return {
          entry,
          what: isItem
            ? itemLabel(layout, path, language)
            : path
              ? `${typeLabel} · ${itemLabel(layout, path, language)}`
              : typeLabel,
          before: isItem ? describe(path, sideValue(entry.before)) : '',
          after: isItem ? describe(path, sideValue(entry.after)) : '',
        };
      }),
    [visitKey, formKey, layout, language, t, describe],
  );
  const historyRows = useMemo(() => historyRowsOf(audit.data), [historyRowsOf, audit.data]);
  const itemHistoryRows = useMemo(() => historyRowsOf(itemAudit.data), [historyRowsOf, itemAudit.data]);

  /**
   * The history button of an item (or repeating group) with a saved value: named "change history",
   * described by the item's label (so a label lookup finds the input, not the button).
   */
  const historyButton = useCallback(
    (itemKey: string, describedBy: string) => {
      if (isEmptyEntry(base.values[itemKey])) return null;
      return (
        <button
          type="button"
          className={styles.itemHistory}
          aria-label={t('history.itemButtonLabel')}
          aria-describedby={describedBy}
          onClick={() => {
            setHistoryItem(itemKey);
            modals.open(ITEM_HISTORY_MODAL);
          }}
        >
          {t('history.itemButton')}
        </button>
      );
    },
    [base.values, modals, t],
  );
  /** The form's queries by the top-level item they are on; '' for the whole form and rows of groups. */
  const queriesByItem = useMemo(() => {
    const byItem = new Map<string, FormDataResponse['queries']>();
    for (const query of formData.queries) {
      const path = toFormItemPath(query.itemPath, visitKey, formKey);
      const key = layout.items.has(path) ? path : '';
      byItem.set(key, [...(byItem.get(key) ?? []), query]);
    }
    return byItem;
  }, [formData.queries, visitKey, formKey, layout]);
  const canRaise = formData.abilities.openQuery;
  const openQueries = useCallback(
    (itemKey: string | null) => {
      setQueryPanel({ itemKey });
      if (!modals.isOpen(QUERY_THREAD_MODAL)) modals.open(QUERY_THREAD_MODAL);
    },
    [modals],
  );
  const canVerify = formData.abilities.verify;
  const sdvPending = sdvChange.isPending;
  /** An item's (or repeating group's) SDV control, by its stored key. */
  // biome-ignore lint/correctness/useExhaustiveDependencies: changeSdv is a plain function of this render; the control re-renders with the marks it reads
  const sdvControl = useCallback(
    (itemKey: string, describedBy: string) => (
      <ItemSdvControl
        sdv={formData.sdv.items[itemKey]}
        canVerify={canVerify}
        pending={sdvPending}
        describedBy={describedBy}
        onVerify={() => void changeSdv({ action: 'verify', itemKeys: [itemKey] })}
        onUnverify={() => {
          setUnverifyItem(itemKey);
          modals.open(UNVERIFY_MODAL);
        }}
      />
    ),
    [formData.sdv.items, canVerify, sdvPending, modals],
  );
  // The labTest form's ranges by result item (`wbcResult`…), for the flag beside each result; the one in
  // force is chosen by the specimen date as it is typed.
  const labRangesByItem = useMemo(() => {
    const byItem = new Map<string, DatedLabRange[]>();
    for (const range of formData.labRanges) {
      const itemKey = `${range.testKey}Result`;
      byItem.set(itemKey, [...(byItem.get(itemKey) ?? []), range]);
    }
    return byItem;
  }, [formData.labRanges]);
  const itemActions = useCallback(
    (item: ItemDefinition, labelId: string) => {
      const sdv = sdvControl(item.key, labelId);
      const history = item.derive === undefined ? historyButton(item.key, labelId) : null;
      const queries = queriesByItem.get(item.key) ?? [];
      const queryButton =
        queries.length > 0 || canRaise ? (
          <ItemQueryButton
            queries={queries}
            canRaise={canRaise}
            describedBy={labelId}
            onOpen={() => openQueries(item.key)}
          />
        ) : null;
      const labRanges = labRangesByItem.get(item.key);
      const labFlag = labRanges ? (
        <LabResultFlag
          store={store}
          visitKey={visitKey}
          formKey={formKey}
          itemKey={item.key}
          testKey={item.key.slice(0, -'Result'.length)}
          ranges={labRanges}
        />
      ) : null;
      if (!history && !queryButton && !labFlag && !formData.sdv.items[item.key]) return null;
      return (
        <div className={styles.itemActions}>
          {labFlag}
          {sdv}
          {history}
          {queryButton}
        </div>
      );
    },
    [
      sdvControl,
      formData.sdv.items,
      historyButton,
      queriesByItem,
      canRaise,
      openQueries,
      labRangesByItem,
      store,
      visitKey,
      formKey,
    ],
  );
  const sectionActions = useCallback(
    (section: SectionDefinition, titleId: string) => (
      <>
        {/* A repeating group is verified as one item: its rows are stored under the group's key. */}
        {section.repeating ? sdvControl(section.repeating.key, titleId) : null}
        {section.repeating ? historyButton(section.repeating.key, titleId) : null}
        {commentLink(section)}
      </>
    ),
    [sdvControl, historyButton, commentLink],
  );

  /** The item's part in an answer: its unsaved change, the form's save, the way back to the item. */
  function correctionOf(itemKey: string): AnswerCorrection {
    const mine = currentValues()[itemKey];
    const changed = changedItemKeys(layout, base.values, currentValues()).includes(itemKey);
    return {
      pending: changed
        ? { before: describe(itemKey, base.values[itemKey]), after: describe(itemKey, mine) }
        : null,
      save: async () => {
        const saved = await saveForAnswer();
        return saved ? { value: asProposedValue(saved.values[itemKey]) } : null;
      },
      edit: () => {
        modals.close(QUERY_THREAD_MODAL);
        revealItem(itemKey);
      },
    };
  }

  // The form's own freeze and lock (a hold at the subject, site or study level is lifted there).
  const holdButton = (kind: 'frozen' | 'locked') => {
    const change = holdChangeToOffer(formData.holds, 'form', kind);
    if (change === null) return null;
    const lift = change === 'lift';
    return (
      <Button key={kind} variant="secondary" size="sm" onClick={() => openHoldDialog(kind, lift)}>
        {t(`holds:actions.${lift ? 'lift' : 'place'}.${kind}Form`)}
      </Button>
    );
  };
  const holdButtons = (
    <>
      {formData.abilities.freeze ? holdButton('frozen') : null}
      {formData.abilities.lock ? holdButton('locked') : null}
    </>
  );

  return (
    <div className={styles.editor} ref={editorRef}>
      <div className={styles.toolbar} role="toolbar" aria-label={t('detail.toolbar')}>
        <div className={styles.toolbarGroup}>{navigation}</div>
        <div className={styles.toolbarGroup}>
          {canEdit ? (
            <Button variant="secondary" size="sm" onClick={() => modals.open(RESET_MODAL)}>
              {t('detail.reset')}
            </Button>
          ) : null}
          {canVerify ? (
            <VerifyFormButton
              items={formData.sdv.items}
              pending={sdvPending}
              onVerify={() => void changeSdv({ action: 'verifyForm' })}
            />
          ) : null}
          {holdButtons}
          {formData.queries.length > 0 || canRaise ? (
            <Button variant="secondary" size="sm" onClick={() => openQueries(null)}>
              {t('queries:badge.formButton', {
                count: formData.queries.filter(
                  (query) => query.status === 'open' || query.status === 'answered',
                ).length,
              })}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setHistoryOpen(true);
              void audit.refetch();
              modals.open(HISTORY_MODAL);
            }}
          >
            {t('detail.history')}
          </Button>
          {/* The subject's whole casebook as the server prints it, in the language on screen. */}
          <a
            className={buttonClassName({ variant: 'secondary', size: 'sm' })}
            href={casebookPdfPath(studyId, subjectPk, { lang: language, audit: false })}
            download
            title={t('detail.pdfTitle')}
          >
            {t('detail.pdf')}
          </a>
          {canEdit ? (
            <Button size="sm" disabled={save.isPending} onClick={requestSave}>
              {save.isPending ? t('detail.saving') : t('detail.save')}
            </Button>
          ) : null}
        </div>
      </div>

      {signingForm ? (
        <SignaturePanel
          studyId={studyId}
          subjectPk={subjectPk}
          subjectLabel={formData.subject.subjectId}
          definition={definition}
          language={language}
          onSigned={() => void reloadFromServer()}
        />
      ) : formData.holds.length > 0 ? null : !canEdit ? (
        <p className={styles.banner} data-tone="info" role="note">
          {t('detail.readOnly')}
        </p>
      ) : signature.data?.state === 'signed' ? (
        <p className={styles.banner} data-tone="warning" role="note">
          {t('signature:editWarning')}
        </p>
      ) : null}
      <FormHoldBanner holds={formData.holds} />
      {visitKey === randomizationForm.visitKey && formKey === randomizationForm.formKey ? (
        <RandomizePanel
          studyId={studyId}
          subject={formData.subject}
          mayRandomize={formData.abilities.randomize}
          onRandomized={() => void reloadFromServer()}
        />
      ) : null}
      {restored && dirty ? (
        <div className={styles.banner} data-tone="warning" role="status">
          <span>{t('detail.draftRestored')}</span>
          <Button variant="secondary" size="sm" onClick={() => void discard()}>
            {t('detail.discard')}
          </Button>
        </div>
      ) : null}

      {formData.outcomes.length > 0 ? (
        <section className={styles.outcomes} aria-label={t('detail.outcomesTitle')}>
          <h2 className={styles.outcomesTitle}>{t('detail.outcomesTitle')}</h2>
          <ul>
            {formData.outcomes.map((outcome) => {
              const target = outcome.target;
              const visit = definition.visits.find((v) => v.key === target?.visit);
              const form = definition.forms.find((f) => f.key === target?.form);
              return (
                <li key={outcome.outcomeId} role="status">
                  <span>{outcome.message[language]}</span>
                  {target ? (
                    <Link to={formUrl(target.visit, target.form)} className={styles.outcomeLink}>
                      {t('detail.goTo', {
                        visit: visit?.label[language] ?? target.visit,
                        form: form?.label[language] ?? target.form,
                      })}
                    </Link>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <div className={styles.formCard}>
        <CrfForm
          definition={definition}
          visitKey={visitKey}
          formKey={formKey}
          store={store}
          language={language}
          readOnly={!canEdit}
          itemNotes={itemNotes}
          sectionActions={sectionActions}
          itemActions={itemActions}
          itemControl={itemControl}
          refusals={refusals}
          titleAddon={
            <span className={styles.formStatus}>
              <FormStatusIcon status={formData.status} />
              <span>{t(`formStatus.${formData.status}`)}</span>
              {formData.sdv.state !== 'notRequired' ? (
                <span className={styles.formSdv}>
                  <SdvMark state={formData.sdv.state} />
                  <span>
                    {t('sdv:form.counts', {
                      verified: formData.sdv.counts.verifiedItems,
                      planned: formData.sdv.counts.plannedItems,
                    })}
                  </span>
                </span>
              ) : null}
              {dirty ? <span className={styles.unsaved}>{t('detail.unsaved')}</span> : null}
            </span>
          }
        />
        {audiogram ? <PtaAudiogram store={store} visitKey={visitKey} layout={audiogram} /> : null}
        {baselinePhoto ? (
          <BaselinePhotoComparison
            address={{ studyId, subjectPk, visitKey, formKey }}
            store={store}
            baseline={baselinePhoto}
            visitLabel={visitLabel}
            baselineLabel={
              definition.visits.find((visit) => visit.key === baselinePhoto.visitKey)?.label[language] ??
              baselinePhoto.visitKey
            }
          />
        ) : null}
      </div>

      {queryPanel ? (
        <QueryThreadPanel
          studyId={studyId}
          context={
            queryPanel.itemKey === null
              ? t('queries:badge.formContext', {
                  subject: formData.subject.subjectId,
                  visit: visitLabel,
                  form: layout.form.label[language],
                })
              : t('queries:badge.itemContext', {
                  subject: formData.subject.subjectId,
                  visit: visitLabel,
                  form: layout.form.label[language],
                  item: itemLabel(layout, queryPanel.itemKey, language),
                })
          }
          queries={(queryPanel.itemKey === null
            ? formData.queries
            : (queriesByItem.get(queryPanel.itemKey) ?? [])
          ).map((query) => ({
            id: query.id,
            state: query.status,
            text:
              queryPanel.itemKey === null
                ? `${query.itemPath ? itemLabel(layout, toFormItemPath(query.itemPath, visitKey, formKey), language) : t('queries:badge.wholeForm')} · ${query.message[language]}`
                : query.message[language],
            openedAt: query.openedAt,
          }))}
          raise={
            canRaise
              ? {
                  subjectPk,
                  visitKey,
                  formKey,
                  itemPath: queryPanel.itemKey === null ? '' : `${visitKey}.${formKey}.${queryPanel.itemKey}`,
                }
              : null
          }
          correction={queryPanel.itemKey !== null && canEdit ? correctionOf(queryPanel.itemKey) : null}
        />
      ) : null}
      <ReasonDialog
        name={UNVERIFY_MODAL}
        title={t('sdv:unverify.title')}
        description={t('sdv:unverify.description', {
          item: unverifyItem ? itemLabel(layout, unverifyItem, language) : '',
        })}
        reasonLabel={t('sdv:unverify.reason')}
        confirmLabel={t('sdv:unverify.confirm')}
        tone="danger"
        onSubmit={(reason) =>
          unverifyItem
            ? changeSdv({ action: 'unverify', itemKeys: [unverifyItem], reason }, true)
            : Promise.resolve(null)
        }
      />
      <ReasonDialog
        name={FORM_HOLD_MODAL}
        title={t(`holds:dialog.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`)}
        description={t('holds:dialog.formTarget', {
          subject: formData.subject.subjectId,
          visit: visitLabel,
          form: layout.form.label[language],
        })}
        reasonLabel={t('holds:dialog.reason')}
        confirmLabel={t(`holds:actions.${holdAction.lift ? 'lift' : 'place'}.${holdAction.kind}`)}
        tone={holdAction.lift ? 'primary' : 'danger'}
        onSubmit={changeHold}
      />
      <ReasonModal rows={reasonRows} pending={save.isPending} onSubmit={(reasons) => void send(reasons)} />
      {conflict ? (
        <ConflictModal
          rows={conflict.rows}
          myVersion={base.version}
          currentVersion={conflict.currentVersion}
          onReapply={() => {
            // The new version becomes the base; the user's changes sit on top, unsaved, to check and save.
            setBase({ version: conflict.currentVersion, values: conflict.theirs });
            store.replace(withForm(store.getData(), visitKey, formKey, conflict.merged));
            modals.close(CONFLICT_MODAL);
            setConflict(null);
            toast(t('conflict.reapplied'));
          }}
          onDiscard={() => {
            loadSaved(conflict.currentVersion, conflict.theirs);
            modals.close(CONFLICT_MODAL);
            setConflict(null);
            toast(t('conflict.discarded'));
          }}
        />
      ) : null}
      <ResetModal pending={reset.isPending} onSubmit={(reason) => void doReset(reason)} />
      <HistoryModal
        name={HISTORY_MODAL}
        title={t('history.title')}
        description={t('history.description', { visit: visitLabel, form: layout.form.label[language] })}
        rows={historyRows}
        loading={audit.isPending || audit.isFetching}
        error={audit.isError ? audit.error.message : null}
        pdfWithAuditHref={casebookPdfPath(studyId, subjectPk, { lang: language, audit: true })}
      />
      <HistoryModal
        name={ITEM_HISTORY_MODAL}
        title={t('history.itemTitle')}
        description={t('history.itemDescription', {
          visit: visitLabel,
          form: layout.form.label[language],
          item: historyItem ? itemLabel(layout, historyItem, language) : '',
        })}
        rows={itemHistoryRows}
        showItem={false}
        loading={itemAudit.isPending || itemAudit.isFetching}
        error={itemAudit.isError ? itemAudit.error.message : null}
      />
      <CommentModal
        key={commentSection?.key ?? ''}
        // A comment is data: the contract's lock rules say whether the holds in force allow it.
        canAdd={refuseUnderHolds('form.comment', formData.holds) === null}
        sectionLabel={commentSection?.label[language] ?? ''}
        comments={formData.comments.filter((comment) => comment.sectionKey === commentSection?.key)}
        pending={addComment.isPending}
        onSubmit={async (text) => {
          if (!commentSection) return false;
          try {
            await addComment.mutateAsync({ sectionKey: commentSection.key, text });
            toast(t('comments.added'), 'success');
            return true;
          } catch (error) {
            toast(error instanceof Error ? error.message : String(error), 'error');
            return false;
          }
        }}
      />
      <PrintView
        definition={definition}
        layout={layout}
        subject={formData.subject}
        visitLabel={visitLabel}
        values={base.values}
        version={base.version}
        definitionVersion={formData.definitionVersion}
        language={language}
      >
        {signingForm ? (
          <SignaturePrint
            studyId={studyId}
            subjectPk={subjectPk}
            definition={definition}
            language={language}
          />
        ) : null}
      </PrintView>
    </div>
  );
}
