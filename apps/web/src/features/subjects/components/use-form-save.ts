import { type FormDataResponse, todayInKorea } from '@cdms/contract';
import {
  evaluateSubject,
  type FormLayout,
  type FormValues,
  findFormEvaluation,
  itemsNeedingReason,
  type Language,
  type StudyDefinition,
} from '@cdms/study';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { QUERY_THREAD_MODAL } from '../../../components/query-thread-panel.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { type FormAddress, useResetForm, useSaveForm } from '../api/forms.ts';
import { subjectKeys } from '../api/subject-query-keys.ts';
import { itemLabel, mergeOnConflict, toFormItemPath, topLevelKey } from '../lib/form-values.ts';
import {
  CONFLICT_MODAL,
  type ConflictViewRow,
  REASON_MODAL,
  RESET_MODAL,
  type ReasonRow,
} from './detail-modals.tsx';
import { type FormDraft, jsonValues } from './use-form-draft.ts';

export interface Conflict {
  currentVersion: number;
  theirs: FormValues;
  merged: FormValues;
  rows: ConflictViewRow[];
}

/**
 * Saving and resetting the form: blocked with the item in view while something cannot be saved,
 * reasons for change asked first, the 409 merge, refused values under their items, a hold placed
 * meanwhile (423). The query thread's answer with a correction saves through here too.
 */
export function useFormSave({
  address,
  definition,
  layout,
  language,
  draft,
  describe,
  revealItem,
}: {
  address: FormAddress;
  definition: StudyDefinition;
  layout: FormLayout;
  language: Language;
  draft: FormDraft;
  /** A value as the form shows it (codes by their labels). */
  describe: (path: string, value: unknown) => string;
  /** Brings an item into view and puts the cursor in it. */
  revealItem: (path: string) => void;
}) {
  const { t } = useTranslation('subjects');
  const { studyId, subjectPk, visitKey, formKey } = address;
  const toast = useToast();
  const { alert } = useAlert();
  const modals = useModalStack();
  const queryClient = useQueryClient();
  const { store, refusals, base, currentValues, loadSaved } = draft;
  const [serverErrors, setServerErrors] = useState<{ path: string; message: string }[]>([]);
  const [reasonRows, setReasonRows] = useState<ReasonRow[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** A save started from the thread panel (an answer with a correction) waits for its outcome here. */
  const answerSave = useRef<((saved: FormDataResponse | null) => void) | null>(null);
  const settleAnswerSave = useCallback((saved: FormDataResponse | null) => {
    const resolve = answerSave.current;
    answerSave.current = null;
    resolve?.(saved);
  }, []);

  const save = useSaveForm(address);
  const reset = useResetForm(address);

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

  return {
    /** Saving now (the save button waits). */
    saving: save.isPending,
    resetting: reset.isPending,
    reasonRows,
    conflict,
    /** The conflict dialog answered: the next save starts afresh. */
    endConflict: () => setConflict(null),
    /** Values the server refused, by item. */
    serverErrors,
    requestSave,
    send,
    saveForAnswer,
    doReset,
    refetchForm,
  };
}
