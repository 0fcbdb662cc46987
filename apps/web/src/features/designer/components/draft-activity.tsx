import type { DesignDraftChange, DesignReview } from '@cdms/contract';
import { designElementsOf, type LocalizedText, type StudyDefinition } from '@cdms/study';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import { DiffKind } from '../../../components/definition-diff-table.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useMe } from '../../../lib/me.ts';
import {
  useChangeApprovalSetting,
  useCommentOnReview,
  useDraftActivity,
  useRequestReview,
} from '../api/design-draft.ts';
import { labelIn } from '../lib/designer-state.ts';
import { APPROVE_DIALOG, ApproveDraftDialog } from './approve-draft-dialog.tsx';
import styles from './designer.module.css';
import { ViewHeader } from './view-header.tsx';

/**
 * The draft's activity beside the schedule (issue 48 items 6 and 7): its review — who asked for it on
 * which revision, the comments on its elements, the e-signed approval by a second designer — and its
 * last saves, each with who saved it, when, and what it changed.
 */
export function DraftActivity({
  studyId,
  definition,
  revision,
  unsaved,
  canAdminister,
  reviews,
  onClose,
}: {
  studyId: number;
  definition: StudyDefinition;
  /** The revision on the server (0: nothing saved yet). */
  revision: number;
  /** Edits not yet on the server: a review or an approval is of what the server holds. */
  unsaved: boolean;
  canAdminister: boolean;
  /** Whether the draft is reviewed here (in design); an amendment's draft is approved at its publish. */
  reviews: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const language = i18n.language.startsWith('en') ? 'en' : 'ko';
  const activity = useDraftActivity(studyId, language);
  const setting = useChangeApprovalSetting(studyId);
  const request = useRequestReview(studyId);
  const settingId = useId();
  const answer = activity.data;
  const review = answer?.review ?? null;

  return (
    <section className={styles.activity} aria-labelledby={`${settingId}-title`}>
      <ViewHeader title={t('activity.title')} titleId={`${settingId}-title`} onClose={onClose} />
      {activity.isError ? <FormAlert message={errorText(activity.error)} /> : null}
      <div className={styles.activityColumns}>
        {reviews ? (
          <section className={styles.activityPanel} aria-labelledby={`${settingId}-review`}>
            <h3 id={`${settingId}-review`} className={styles.panelTitle}>
              {t('review.title')}
            </h3>
            {answer ? (
              <label className={styles.flag}>
                <input
                  type="checkbox"
                  checked={answer.approvalRequired}
                  disabled={!canAdminister || setting.isPending}
                  onChange={(event) => setting.mutate(event.target.checked)}
                />
                {t('review.approvalRequired')}
              </label>
            ) : null}
            {!canAdminister ? <p className={styles.hint}>{t('review.settingByAdmin')}</p> : null}
            <FormAlert message={setting.error ? errorText(setting.error) : null} />
            {review ? (
              <ReviewDetails
                studyId={studyId}
                review={review}
                definition={definition}
                revision={revision}
                unsaved={unsaved}
              />
            ) : (
              <p className={styles.hint}>{t('review.none')}</p>
            )}
            {review === null || review.revision !== revision ? (
              <div>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={unsaved || revision === 0 || request.isPending}
                  onClick={() => request.mutate(revision)}
                >
                  {review ? t('review.requestAgain', { revision }) : t('review.request', { revision })}
                </Button>
                {unsaved || revision === 0 ? <p className={styles.hint}>{t('review.waitForSave')}</p> : null}
              </div>
            ) : null}
            <FormAlert message={request.error ? errorText(request.error) : null} />
          </section>
        ) : null}
        <section className={styles.activityPanel} aria-labelledby={`${settingId}-changes`}>
          <h3 id={`${settingId}-changes`} className={styles.panelTitle}>
            {t('changes.title')}
          </h3>
          {answer && answer.changes.length === 0 ? <p className={styles.hint}>{t('changes.none')}</p> : null}
          <ol className={styles.changeList}>
            {answer?.changes.map((change) => (
              <ChangeEntry key={change.revision} change={change} />
            ))}
          </ol>
        </section>
      </div>
    </section>
  );
}

function ChangeEntry({ change }: { change: DesignDraftChange }) {
  const { t } = useTranslation('designer');
  const more = change.lineCount === null ? 0 : change.lineCount - change.lines.length;
  return (
    <li className={styles.changeEntry}>
      <p className={styles.changeHead}>
        <strong>{t('changes.revision', { revision: change.revision })}</strong> · {change.savedBy.name} ·{' '}
        <DateTimeText value={change.savedBy.at} />
      </p>
      {change.lineCount === null ? (
        <p className={styles.hint}>{t('changes.notTold')}</p>
      ) : change.lineCount === 0 ? (
        <p className={styles.hint}>{t('changes.nothing')}</p>
      ) : (
        <ul className={styles.changeLines}>
          {change.lines.map((line) => (
            <li key={`${line.kind}:${line.path}:${line.text}`}>
              <DiffKind kind={line.kind} /> {line.text}
            </li>
          ))}
          {more > 0 ? <li className={styles.hint}>{t('changes.more', { count: more })}</li> : null}
        </ul>
      )}
    </li>
  );
}

function ReviewDetails({
  studyId,
  review,
  definition,
  revision,
  unsaved,
}: {
  studyId: number;
  review: DesignReview;
  definition: StudyDefinition;
  revision: number;
  unsaved: boolean;
}) {
  const { t, i18n } = useTranslation('designer');
  const me = useMe();
  const modals = useModalStack();
  const language = i18n.language;
  const elements = useMemo(
    () =>
      reviewElements(definition, language, {
        study: t('elements.study'),
        visit: t('elements.visit'),
        form: t('elements.form'),
        item: t('elements.item'),
        codeList: t('elements.codeList'),
      }),
    [definition, language, t],
  );
  const names = useMemo(() => new Map(elements.map((element) => [element.value, element.label])), [elements]);
  const comment = useCommentOnReview(studyId);
  const [element, setElement] = useState('study');
  const [text, setText] = useState('');
  const fieldId = useId();
  const approval = review.approval;
  const mine = me.data?.user.id === review.requestedBy.userId;
  const approvedNow = approval !== null && approval.revision === revision;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '') return;
    comment.mutate({ reviewId: review.id, element, text: text.trim() }, { onSuccess: () => setText('') });
  }

  return (
    <>
      <p>
        {t('review.requested', { name: review.requestedBy.name, revision: review.revision })} ·{' '}
        <DateTimeText value={review.requestedBy.at} />
      </p>
      {approval ? (
        <p className={styles.approval} role="note">
          {t('review.approved', { name: approval.by.name, revision: approval.revision })} ·{' '}
          <DateTimeText value={approval.by.at} />
          {approval.revision !== revision ? (
            <span className={styles.hint}> {t('review.changedSince')}</span>
          ) : null}
        </p>
      ) : (
        <p className={styles.hint}>{t('review.notApproved')}</p>
      )}
      {!approvedNow && !mine ? (
        <div>
          <Button size="sm" disabled={unsaved || revision === 0} onClick={() => modals.open(APPROVE_DIALOG)}>
            {t('review.approve', { revision })}
          </Button>
        </div>
      ) : null}
      {mine && !approvedNow ? <p className={styles.hint}>{t('review.ownRequest')}</p> : null}
      <h4 className={styles.propertyLabel}>{t('review.comments', { count: review.comments.length })}</h4>
      <ul className={styles.commentList}>
        {review.comments.map((entry) => (
          <li key={entry.id} className={styles.comment}>
            <p className={styles.changeHead}>
              <strong>{names.get(entry.element) ?? entry.element}</strong> · {entry.author.name} ·{' '}
              <DateTimeText value={entry.author.at} /> · {t('changes.revision', { revision: entry.revision })}
            </p>
            <p className={styles.commentText}>{entry.text}</p>
          </li>
        ))}
      </ul>
      <form className={styles.commentForm} onSubmit={submit} noValidate>
        <div className={styles.selectField}>
          <label htmlFor={`${fieldId}-element`}>{t('review.element')}</label>
          <select
            id={`${fieldId}-element`}
            value={element}
            onChange={(event) => setElement(event.target.value)}
          >
            {elements.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.selectField}>
          <label htmlFor={`${fieldId}-text`}>{t('review.comment')}</label>
          <textarea
            id={`${fieldId}-text`}
            className={styles.commentInput}
            value={text}
            maxLength={2000}
            rows={3}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <FormAlert message={comment.error ? errorText(comment.error) : null} />
        <div>
          <Button
            type="submit"
            size="sm"
            variant="secondary"
            disabled={comment.isPending || text.trim() === ''}
          >
            {t('review.addComment')}
          </Button>
        </div>
      </form>
      <ApproveDraftDialog
        studyId={studyId}
        reviewId={review.id}
        revision={revision}
        meaning={review.approvalMeaning}
      />
    </>
  );
}

/**
 * The elements a comment may be about (`designElementsOf`, the keys the server checks a comment's
 * against), each with its label in the reader's language.
 */
export function reviewElements(
  definition: StudyDefinition,
  language: string,
  words: Record<'study' | 'visit' | 'form' | 'item' | 'codeList', string>,
): Array<{ value: string; label: string }> {
  const text = (label: LocalizedText | undefined) => (label ? labelIn(label, language) : '');
  return designElementsOf(definition).map((element) => {
    switch (element.kind) {
      case 'study':
        return { value: element.ref, label: words.study };
      case 'visit':
      case 'form':
        return {
          value: element.ref,
          label: `${words[element.kind]} ${text(element.label)} (${element.key})`,
        };
      case 'item':
        return {
          value: element.ref,
          label: `${words.form} ${text(element.form.label)} › ${words.item} ${text(element.label)} (${element.key})`,
        };
      default:
        return { value: element.ref, label: `${words.codeList} ${element.key}` };
    }
  });
}
