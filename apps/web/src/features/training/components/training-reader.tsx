import type { TrainingResult } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AttachmentLinks } from '../../../components/attachment-links.tsx';
import { Button } from '../../../components/button.tsx';
import { DocumentContent } from '../../../components/document-page.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useCompleteTraining, useSubmitQuiz, useTrainingModule } from '../api/training.ts';
import styles from './training.module.css';
import { TrainingStatusBadge } from './training-status.tsx';

/**
 * One module to read: its body (sanitized by the server when saved), then either "read and completed"
 * or the quiz — one choice per question, checked by the server, which only then tells the right answers.
 */
export function TrainingReader({
  studyId,
  moduleId,
  onClose,
  onCertificate,
}: {
  studyId: number;
  moduleId: number;
  onClose: () => void;
  onCertificate: () => void;
}) {
  const { t } = useTranslation('training');
  const module = useTrainingModule(studyId, moduleId);
  const complete = useCompleteTraining(studyId);
  const submit = useSubmitQuiz(studyId);
  const [answers, setAnswers] = useState<(number | null)[]>([]);
  const [result, setResult] = useState<TrainingResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const data = module.data;
  if (module.isError) return <p className={listStyles.stateError}>{module.error.message}</p>;
  if (!data) return <p className={listStyles.state}>{t('page.loading')}</p>;
  const quiz = data.quiz;
  const published = data.state === 'published';

  async function markComplete() {
    setError(null);
    try {
      setResult(await complete.mutateAsync(moduleId));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  async function sendQuiz(event: FormEvent) {
    event.preventDefault();
    if (!quiz) return;
    if (
      answers.length !== quiz.questions.length ||
      answers.some((answer) => answer === null || answer === undefined)
    ) {
      setError(t('quiz.answerAll'));
      return;
    }
    setError(null);
    try {
      setResult(await submit.mutateAsync({ moduleId, answers: answers as number[] }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <article className={`${listStyles.card} ${styles.reader}`} aria-labelledby={`training-${moduleId}`}>
      <header className={styles.readerHeader}>
        <h2 id={`training-${moduleId}`} className={styles.sectionTitle}>
          {data.title} <span className={styles.muted}>v{data.version}</span>
        </h2>
        <div className={styles.actions}>
          <TrainingStatusBadge status={data.myStatus} />
          <Button variant="ghost" size="sm" onClick={onClose}>
            {t('actions.close')}
          </Button>
        </div>
      </header>
      <DocumentContent html={data.contentHtml} className={styles.content} />
      {data.attachments.length > 0 ? (
        <div className={styles.attachments}>
          <h3 className={styles.quizTitle}>{t('reader.attachments')}</h3>
          <AttachmentLinks studyId={studyId} attachments={data.attachments} sizeClassName={styles.muted} />
        </div>
      ) : null}
      {!published ? <p className={styles.muted}>{t('reader.draft')}</p> : null}
      {published && quiz ? (
        <form className={styles.quiz} onSubmit={(event) => void sendQuiz(event)} noValidate>
          <h3 className={styles.quizTitle}>{t('quiz.title', { passMark: quiz.passMark })}</h3>
          {quiz.questions.map((question, index) => (
            <fieldset key={question.text + String(index)} className={styles.question}>
              <legend>
                {index + 1}. {question.text}
              </legend>
              {question.options.map((option, choice) => {
                const outcome = result?.results?.[index];
                const mark =
                  outcome && outcome.answer === choice
                    ? styles.right
                    : outcome && answers[index] === choice
                      ? styles.wrong
                      : '';
                return (
                  <label key={option + String(choice)} className={`${styles.option} ${mark}`}>
                    <input
                      type="radio"
                      name={`q-${moduleId}-${index}`}
                      checked={answers[index] === choice}
                      onChange={() => {
                        const next = [...answers];
                        while (next.length < quiz.questions.length) next.push(null);
                        next[index] = choice;
                        setAnswers(next);
                      }}
                    />
                    {option}
                  </label>
                );
              })}
            </fieldset>
          ))}
          <div className={styles.actions}>
            <Button type="submit" disabled={submit.isPending}>
              {t('quiz.submit')}
            </Button>
          </div>
        </form>
      ) : null}
      {published && !quiz && data.myStatus !== 'completed' ? (
        <div className={styles.actions}>
          <Button onClick={() => void markComplete()} disabled={complete.isPending}>
            {t('actions.complete')}
          </Button>
        </div>
      ) : null}
      {result ? (
        <p className={result.passed ? styles.passed : styles.failed} role="status">
          {result.score === null
            ? t('reader.completed')
            : result.passed
              ? t('quiz.passed', { score: result.score, passMark: result.passMark ?? 0 })
              : t('quiz.failed', { score: result.score, passMark: result.passMark ?? 0 })}
        </p>
      ) : null}
      <FormAlert message={error} className={listStyles.stateError} />
      {data.myStatus === 'completed' && published ? (
        <div className={styles.actions}>
          <span className={styles.muted}>
            {t('reader.completedAt', {
              at: formatDateTimeKst(data.completedAt ?? ''),
              version: data.version,
            })}
          </span>
          <Button variant="secondary" onClick={onCertificate}>
            {t('actions.certificate')}
          </Button>
        </div>
      ) : null}
    </article>
  );
}
