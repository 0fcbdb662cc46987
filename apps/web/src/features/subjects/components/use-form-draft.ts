import type { FormDataResponse } from '@cdms/contract';
import {
  changedItemKeys,
  enteredFormValues,
  type FormLayout,
  type FormValues,
  getFormLayout,
  type StudyDefinition,
  type SubjectData,
} from '@cdms/study';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { createInputRefusals } from '../../../components/crf-form/input-refusals.ts';
import { createSubjectStore, type SubjectStore } from '../../../components/crf-form/subject-store.ts';
import { type FormAddress, useReferencedForms } from '../api/forms.ts';
import { subjectKeys } from '../api/subject-query-keys.ts';
import { draftKey, readDraft, removeDraft, writeDraft } from '../lib/draft-store.ts';

export interface Base {
  /** The server version the edits start from (a save names it). */
  version: number;
  /** The saved values of that version (entered and derived, as the server sent them). */
  values: FormValues;
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
export function jsonValues(values: Record<string, unknown>): FormValues {
  return values as FormValues;
}

export function withForm(
  data: SubjectData,
  visitKey: string,
  formKey: string,
  values: FormValues,
): SubjectData {
  return { ...data, [visitKey]: { ...data[visitKey], [formKey]: values } };
}

/**
 * The form's values being edited: the store the renderer writes to (with the other forms the rules
 * read), the saved version they start from (`base`), whether they differ from it (`dirty`), the
 * draft kept in session storage and the guard before leaving with unsaved changes.
 */
export function useFormDraft({
  address,
  definition,
  layout,
  formData,
}: {
  address: FormAddress;
  definition: StudyDefinition;
  layout: FormLayout;
  formData: FormDataResponse;
}) {
  const { t } = useTranslation('subjects');
  const { confirm } = useAlert();
  const queryClient = useQueryClient();
  const { studyId, subjectPk, visitKey, formKey } = address;
  const storageKey = draftKey(studyId, subjectPk, visitKey, formKey);
  const canEdit = formData.abilities.edit;

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
  const [base, setBase] = useState<Base>(initial.base);
  const [restored, setRestored] = useState(initial.restored);

  // Values of the other forms the rules read (the consent date for age, the V1 visit date for windows).
  // The PTA form's audiogram also reads the treated ear, kept on another form.
  const references = useMemo(() => {
    const ear = definition.roles?.audiogram?.treatedEar;
    return [
      ...referencedForms(layout, visitKey, formKey, definition),
      ...(ear &&
      formKey === definition.roles?.audiogram?.form &&
      getFormLayout(definition, ear.visit, ear.form)
        ? [{ visitKey: ear.visit, formKey: ear.form }]
        : []),
    ];
  }, [layout, visitKey, formKey, definition]);
  const referenced = useReferencedForms(studyId, subjectPk, references);
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

  /** A newer version becomes the base with the user's changes (`merged`) on top, unsaved, to check and save. */
  function rebase(version: number, values: FormValues, merged: FormValues) {
    setBase({ version, values });
    store.replace(withForm(store.getData(), visitKey, formKey, merged));
  }

  /** After the server changed this form itself (signature, randomization): its new values become the base. */
  const reloadFromServer = useCallback(async () => {
    const ownKey = subjectKeys.form(studyId, subjectPk, visitKey, formKey);
    await queryClient.refetchQueries({ queryKey: ownKey, exact: true });
    const fresh = queryClient.getQueryData<FormDataResponse>(ownKey);
    if (fresh) loadSaved(fresh.version, jsonValues(fresh.values));
  }, [queryClient, studyId, subjectPk, visitKey, formKey, loadSaved]);

  async function discard() {
    const ok = await confirm({ message: t('detail.discardConfirm'), confirmLabel: t('detail.discard') });
    if (ok) loadSaved(formData.version, jsonValues(formData.values));
  }

  return {
    store,
    refusals,
    base,
    /** The draft of an earlier visit was brought back (the banner offers to discard it). */
    restored,
    dirty,
    currentValues,
    references,
    loadSaved,
    rebase,
    reloadFromServer,
    discard,
  };
}

export type FormDraft = ReturnType<typeof useFormDraft>;
