import type { Attachment } from '@cdms/contract';
import {
  roles as allRoles,
  isBlankRichText,
  type Role,
  TRAINING_OPTIONS_MAX,
  TRAINING_QUESTIONS_MAX,
  type TrainingModuleDetail,
  type TrainingModuleRequest,
  type TrainingQuestion,
  type TrainingState,
} from '@cdms/contract';
import type { Editor } from '@tiptap/react';
import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AttachmentPicker } from '../../../components/attachment-picker.tsx';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { NoticeEditor } from '../../../components/rich-text-editor.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useSaveTrainingModule, useTrainingModule } from '../api/training.ts';
import styles from './training.module.css';

export const TRAINING_MODULE_MODAL = 'training-module';

const emptyQuestion = (): TrainingQuestion => ({ text: '', options: ['', ''], answer: 0 });

/**
 * Adding or changing a training module (DM, ADMIN): title, the roles that must complete it, draft or
 * published, the body in the notices' editor (images uploaded first), and an optional quiz with the
 * right option per question and a pass mark. The server checks again; its refusal shows here.
 */
export function TrainingModuleDialog({ studyId, moduleId }: { studyId: number; moduleId: number | null }) {
  const { t } = useTranslation('training');
  const existing = useTrainingModule(studyId, moduleId);
  return (
    <Modal
      name={TRAINING_MODULE_MODAL}
      title={moduleId === null ? t('dialog.addTitle') : t('dialog.editTitle')}
      width="lg"
    >
      {moduleId !== null && !existing.data ? (
        <p className={listStyles.state}>{t('page.loading')}</p>
      ) : (
        <ModuleForm
          key={existing.data?.updatedAt ?? 'new'}
          studyId={studyId}
          existing={existing.data ?? null}
        />
      )}
    </Modal>
  );
}

function ModuleForm({ studyId, existing }: { studyId: number; existing: TrainingModuleDetail | null }) {
  const { t } = useTranslation('training');
  const modals = useModalStack();
  const toast = useToast();
  const save = useSaveTrainingModule(studyId);
  const id = useId();
  const editorRef = useRef<Editor | null>(null);
  const onEditor = useCallback((editor: Editor | null) => {
    editorRef.current = editor;
  }, []);
  const [title, setTitle] = useState(existing?.title ?? '');
  const [roles, setRoles] = useState<Role[]>(existing?.roles ?? ['CRC']);
  const [state, setState] = useState<TrainingState>(existing?.state ?? 'draft');
  const [withQuiz, setWithQuiz] = useState(existing ? existing.editableQuiz !== null : false);
  const [questions, setQuestions] = useState<TrainingQuestion[]>(
    existing?.editableQuiz?.questions ?? [emptyQuestion()],
  );
  const [passMark, setPassMark] = useState(String(existing?.editableQuiz?.passMark ?? 80));
  const [error, setError] = useState<string | null>(null);
  const [attachments, setAttachments] = useState<Attachment[]>(existing?.attachments ?? []);
  const [uploading, setUploading] = useState(false);

  function changeQuestion(index: number, change: Partial<TrainingQuestion>) {
    setQuestions(questions.map((question, at) => (at === index ? { ...question, ...change } : question)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const contentHtml = editorRef.current?.getHTML() ?? '';
    const mark = Number(passMark);
    const quizInvalid =
      withQuiz &&
      (!Number.isInteger(mark) ||
        mark < 1 ||
        mark > 100 ||
        questions.some((q) => !q.text.trim() || q.options.some((option) => !option.trim())));
    if (!title.trim() || roles.length === 0 || isBlankRichText(contentHtml) || quizInvalid) {
      setError(t('dialog.invalid'));
      return;
    }
    const request: TrainingModuleRequest = {
      title: title.trim(),
      contentHtml,
      roles,
      state,
      attachmentIds: attachments.map((file) => file.id),
      quiz: withQuiz
        ? {
            passMark: mark,
            questions: questions.map((q) => ({
              text: q.text.trim(),
              options: q.options.map((option) => option.trim()),
              answer: q.answer,
            })),
          }
        : null,
    };
    try {
      await save.mutateAsync({ id: existing?.id ?? null, request });
      toast(existing ? t('dialog.changed') : t('dialog.added'), 'success');
      modals.close(TRAINING_MODULE_MODAL);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <form className={styles.dialogBody} onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label={t('columns.title')}
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
      />
      <fieldset className={styles.roles}>
        <legend className={listStyles.label}>{t('dialog.roles')}</legend>
        {allRoles.map((role) => (
          <label key={role} className={styles.checkbox}>
            <input
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(e) =>
                setRoles(e.target.checked ? [...roles, role] : roles.filter((held) => held !== role))
              }
            />
            {role}
          </label>
        ))}
      </fieldset>
      <div className={listStyles.field}>
        <label className={listStyles.label} htmlFor={`${id}-state`}>
          {t('columns.state')}
        </label>
        <select
          id={`${id}-state`}
          className={listStyles.select}
          value={state}
          onChange={(e) => setState(e.target.value as TrainingState)}
        >
          <option value="draft">{t('state.draft')}</option>
          <option value="published">{t('state.published')}</option>
        </select>
      </div>
      {existing && existing.state === 'published' ? (
        <p className={styles.muted}>{t('dialog.versionNote')}</p>
      ) : null}
      <div className={listStyles.field}>
        <span id={`${id}-content`} className={listStyles.label}>
          {t('dialog.content')}
        </span>
        <NoticeEditor
          initialHtml={existing?.contentHtml ?? ''}
          labelledBy={`${id}-content`}
          onEditor={onEditor}
        />
      </div>
      <div className={listStyles.field}>
        <label className={listStyles.label} htmlFor={`${id}-files`}>
          {t('dialog.attachments')}
        </label>
        <AttachmentPicker
          studyId={studyId}
          inputId={`${id}-files`}
          attachments={attachments}
          onChange={setAttachments}
          onUploading={setUploading}
        />
      </div>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={withQuiz} onChange={(e) => setWithQuiz(e.target.checked)} />
        {t('dialog.withQuiz')}
      </label>
      {withQuiz ? (
        <div className={styles.quizEditor}>
          <TextField
            label={t('dialog.passMark')}
            inputMode="numeric"
            value={passMark}
            onChange={(e) => setPassMark(e.target.value)}
          />
          {questions.map((question, index) => (
            <fieldset key={String(index)} className={styles.question}>
              <legend>{t('dialog.question', { n: index + 1 })}</legend>
              <TextField
                label={t('dialog.questionText')}
                value={question.text}
                maxLength={500}
                onChange={(e) => changeQuestion(index, { text: e.target.value })}
              />
              {question.options.map((option, choice) => (
                <div key={String(choice)} className={styles.optionRow}>
                  <input
                    type="radio"
                    aria-label={t('dialog.rightAnswer', { n: choice + 1 })}
                    name={`${id}-answer-${index}`}
                    checked={question.answer === choice}
                    onChange={() => changeQuestion(index, { answer: choice })}
                  />
                  <TextField
                    label={t('dialog.option', { n: choice + 1 })}
                    value={option}
                    maxLength={200}
                    onChange={(e) =>
                      changeQuestion(index, {
                        options: question.options.map((text, at) => (at === choice ? e.target.value : text)),
                      })
                    }
                  />
                </div>
              ))}
              <div className={styles.actions}>
                {question.options.length < TRAINING_OPTIONS_MAX ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => changeQuestion(index, { options: [...question.options, ''] })}
                  >
                    {t('dialog.addOption')}
                  </Button>
                ) : null}
                {question.options.length > 2 ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() =>
                      changeQuestion(index, {
                        options: question.options.slice(0, -1),
                        answer: Math.min(question.answer, question.options.length - 2),
                      })
                    }
                  >
                    {t('dialog.removeOption')}
                  </Button>
                ) : null}
                {questions.length > 1 ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setQuestions(questions.filter((_, at) => at !== index))}
                  >
                    {t('dialog.removeQuestion')}
                  </Button>
                ) : null}
              </div>
            </fieldset>
          ))}
          {questions.length < TRAINING_QUESTIONS_MAX ? (
            <Button variant="secondary" onClick={() => setQuestions([...questions, emptyQuestion()])}>
              {t('dialog.addQuestion')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <FormAlert message={error} className={listStyles.stateError} />
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => modals.close(TRAINING_MODULE_MODAL)}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending || uploading}>
          {t('dialog.save')}
        </Button>
      </div>
    </form>
  );
}
