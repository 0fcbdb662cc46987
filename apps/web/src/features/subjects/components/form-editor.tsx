import { casebookPdfPath, type DatedLabRange, type FormDataResponse, refuseUnderHolds } from '@cdms/contract';
import {
  changedItemKeys,
  type FormLayout,
  type ItemDefinition,
  type Language,
  type SectionDefinition,
  type StudyDefinition,
} from '@cdms/study';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { CrfForm } from '../../../components/crf-form/crf-form.tsx';
import type { ItemNote } from '../../../components/crf-form/crf-form-context.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import {
  type AnswerCorrection,
  type ProposedValue,
  QUERY_THREAD_MODAL,
} from '../../../components/query-thread-panel.tsx';
import { SdvMark } from '../../../components/record-marks.tsx';
import { useToast } from '../../../components/toast.tsx';
import { type FormAddress, useAddComment } from '../api/forms.ts';
import { describeValue, toFormItemPath } from '../lib/form-values.ts';
import {
  COMMENT_MODAL,
  CONFLICT_MODAL,
  CommentModal,
  ConflictModal,
  RESET_MODAL,
  ReasonModal,
  ResetModal,
} from './detail-modals.tsx';
import { useFormAudiogram } from './form-audiogram.tsx';
import { useFormHistory } from './form-history.tsx';
import { FormHoldBanner } from './form-hold-banner.tsx';
import { useFormHolds } from './form-holds.tsx';
import { useFormPhoto } from './form-photo.tsx';
import { useFormQueries } from './form-queries.tsx';
import { useFormSdv } from './form-sdv.tsx';
import { useFormSignature } from './form-signature.tsx';
import { FormStatusIcon } from './form-status-icon.tsx';
import { LabResultFlag } from './lab-result-flag.tsx';
import { PrintView } from './print-view.tsx';
import { RandomizePanel } from './randomize-panel.tsx';
import styles from './subject-detail.module.css';
import { TrainingPendingBanner, useTrainingPending } from './training-pending-banner.tsx';
import { useFormDraft } from './use-form-draft.ts';
import { useFormSave } from './use-form-save.ts';

/** A saved value as an answer's proposed value: JSON scalars as they are, anything else as its text. */
function asProposedValue(value: unknown): ProposedValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
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
  const { t } = useTranslation(['subjects', 'queries', 'sdv', 'holds']);
  const { studyId, subjectPk, visitKey, formKey } = address;
  const toast = useToast();
  const modals = useModalStack();
  // Whether anything here may be edited is the server's word (`abilities.edit` is false on the signing
  // form, under a freeze or lock, and for roles that do not enter data).
  const canEdit = formData.abilities.edit;
  // The study's training gate (issue 51): the user may read but not save until trained.
  const trainingPending = useTrainingPending(studyId);

  const draft = useFormDraft({ address, definition, layout, formData });
  const { store, refusals, base, restored, dirty, currentValues, references } = draft;
  const editorRef = useRef<HTMLDivElement>(null);
  const [commentSection, setCommentSection] = useState<SectionDefinition | null>(null);
  const addComment = useAddComment(address);

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

  const saving = useFormSave({ address, definition, layout, language, draft, describe, revealItem });
  const { serverErrors, reasonRows, conflict, requestSave, send, saveForAnswer, doReset, refetchForm } =
    saving;
  const sdv = useFormSdv({ address, formData, layout, language, refetchForm });
  const holds = useFormHolds({ address, formData, layout, language, visitLabel });
  const queries = useFormQueries({ address, formData, layout, language, visitLabel, correctionOf });
  const history = useFormHistory({ address, layout, language, visitLabel, base, describe });
  const signature = useFormSignature({
    address,
    formData,
    definition,
    language,
    onSigned: () => void draft.reloadFromServer(),
  });
  const photo = useFormPhoto({ address, definition, layout, language, visitLabel, store, references });
  const audiogram = useFormAudiogram({ address, definition, store });

  // A link to an item (the query list's subject column, `item=v1.form.key`) brings it into view.
  const [searchParams] = useSearchParams();
  const linkedItem = searchParams.get('item');
  useEffect(() => {
    if (linkedItem) revealItem(toFormItemPath(linkedItem, visitKey, formKey));
  }, [linkedItem, revealItem, visitKey, formKey]);

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
        ...(query.checkId ? { checkId: query.checkId } : {}),
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
  const specimenDateItem = definition.roles?.labPanel?.specimenDate;
  const itemActions = useCallback(
    (item: ItemDefinition, labelId: string) => {
      const sdvControl = sdv.control(item.key, labelId);
      const historyControl = item.derive === undefined ? history.itemButton(item.key, labelId) : null;
      const queryButton = queries.itemButton(item.key, labelId);
      const labRanges = labRangesByItem.get(item.key);
      const labFlag = labRanges ? (
        <LabResultFlag
          store={store}
          visitKey={visitKey}
          formKey={formKey}
          itemKey={item.key}
          testKey={item.key.slice(0, -'Result'.length)}
          specimenDateItem={specimenDateItem}
          ranges={labRanges}
        />
      ) : null;
      if (!historyControl && !queryButton && !labFlag && !formData.sdv.items[item.key]) return null;
      return (
        <div className={styles.itemActions}>
          {labFlag}
          {sdvControl}
          {historyControl}
          {queryButton}
        </div>
      );
    },
    [
      formData.sdv.items,
      history.itemButton,
      queries.itemButton,
      labRangesByItem,
      specimenDateItem,
      store,
      visitKey,
      formKey,
      sdv.control,
    ],
  );
  const sectionActions = useCallback(
    (section: SectionDefinition, titleId: string) => (
      <>
        {/* A repeating group is verified as one item: its rows are stored under the group's key. */}
        {section.repeating ? sdv.control(section.repeating.key, titleId) : null}
        {section.repeating ? history.itemButton(section.repeating.key, titleId) : null}
        {commentLink(section)}
      </>
    ),
    [history.itemButton, commentLink, sdv.control],
  );

  /** The item's part in an answer: its unsaved change, the form's save, the way back to the item. */
  function correctionOf(itemKey: string): AnswerCorrection | null {
    if (!canEdit) return null;
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

  return (
    <div className={styles.editor} ref={editorRef}>
      <div className={styles.toolbar} role="toolbar" aria-label={t('detail.toolbar')}>
        <div className={styles.toolbarGroup}>{navigation}</div>
        <div className={styles.toolbarGroup}>
          {canEdit ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={trainingPending}
              onClick={() => modals.open(RESET_MODAL)}
            >
              {t('detail.reset')}
            </Button>
          ) : null}
          {sdv.verifyButton}
          {holds.buttons}
          {queries.toolbarButton}
          {history.toolbarButton}
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
            <Button size="sm" disabled={saving.saving || trainingPending} onClick={requestSave}>
              {saving.saving ? t('detail.saving') : t('detail.save')}
            </Button>
          ) : null}
        </div>
      </div>

      {signature.panel ? (
        signature.panel
      ) : formData.holds.length > 0 ? null : !canEdit ? (
        <p className={styles.banner} data-tone="info" role="note">
          {t('detail.readOnly')}
        </p>
      ) : (
        signature.editWarning
      )}
      <FormHoldBanner holds={formData.holds} />
      {canEdit ? <TrainingPendingBanner studyId={studyId} /> : null}
      {visitKey === definition.roles?.randomization?.visit &&
      formKey === definition.roles.randomization.form ? (
        <RandomizePanel
          studyId={studyId}
          subject={formData.subject}
          mayRandomize={formData.abilities.randomize}
          onRandomized={() => void draft.reloadFromServer()}
        />
      ) : null}
      {restored && dirty ? (
        <div className={styles.banner} data-tone="warning" role="status">
          <span>{t('detail.draftRestored')}</span>
          <Button variant="secondary" size="sm" onClick={() => void draft.discard()}>
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
          readOnly={!canEdit || trainingPending}
          itemNotes={itemNotes}
          sectionActions={sectionActions}
          itemActions={itemActions}
          itemControl={photo.itemControl}
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
              {formData.version > 0 ? (
                // The definition version the form was entered (or last migrated) under: an amendment
                // moves subjects one by one, so forms of one study can be under different versions.
                <span className={styles.formDefinitionVersion}>
                  {t('overview.definitionVersion', { version: formData.definitionVersion })}
                </span>
              ) : null}
              {dirty ? <span className={styles.unsaved}>{t('detail.unsaved')}</span> : null}
            </span>
          }
        />
        {audiogram.chart}
        {photo.comparison}
      </div>

      {queries.panel}
      {sdv.unverifyDialog}
      {holds.dialog}
      <ReasonModal rows={reasonRows} pending={saving.saving} onSubmit={(reasons) => void send(reasons)} />
      {conflict ? (
        <ConflictModal
          rows={conflict.rows}
          myVersion={base.version}
          currentVersion={conflict.currentVersion}
          onReapply={() => {
            draft.rebase(conflict.currentVersion, conflict.theirs, conflict.merged);
            modals.close(CONFLICT_MODAL);
            saving.endConflict();
            toast(t('conflict.reapplied'));
          }}
          onDiscard={() => {
            draft.loadSaved(conflict.currentVersion, conflict.theirs);
            modals.close(CONFLICT_MODAL);
            saving.endConflict();
            toast(t('conflict.discarded'));
          }}
        />
      ) : null}
      <ResetModal pending={saving.resetting} onSubmit={(reason) => void doReset(reason)} />
      {history.dialogs}
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
        {signature.print}
      </PrintView>
    </div>
  );
}
