import type { RandomizeResponse, SubjectSummary } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { subjectKeys, subjectPath } from '../api/subject-query-keys.ts';
import styles from './randomize-panel.module.css';

export const RANDOMIZE_MODAL = 'subject-randomize';

function useRandomize(studyId: number, subjectPk: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<RandomizeResponse>(`${subjectPath(studyId, subjectPk)}/randomize`, { method: 'POST' }),
    // The randomization form, the subject's status (Ongoing), the overview and the list all changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subjectKeys.all(studyId) }),
  });
}

/**
 * On the V2 randomization form: the Randomize button for site staff allowed to randomize, while the
 * subject is in screening and has no number yet; a confirmation; the assignment's result. The server
 * decides eligibility and refuses with a message in the user's language (not eligible, list used
 * up, already randomized).
 */
export function RandomizePanel({
  studyId,
  subject,
  mayRandomize,
  onRandomized,
}: {
  studyId: number;
  subject: SubjectSummary;
  /** The server's answer on the form: this user may randomize this subject now. */
  mayRandomize: boolean;
  /** After the assignment: the form reloads its values from the server. */
  onRandomized: () => void;
}) {
  const { t } = useTranslation('randomization');
  const modals = useModalStack();
  const toast = useToast();
  const randomize = useRandomize(studyId, subject.id);
  const [result, setResult] = useState<RandomizeResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setError(null);
    try {
      const response = await randomize.mutateAsync();
      setResult(response);
      modals.close(RANDOMIZE_MODAL);
      toast(t('randomize.done', { subject: subject.subjectId }), 'success');
      onRandomized();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  if (result) {
    return (
      <section className={styles.panel} data-state="done" aria-label={t('randomize.title')}>
        <h2 className={styles.title}>{t('randomize.result')}</h2>
        <dl className={styles.result}>
          <div>
            <dt>{t('randomize.number')}</dt>
            <dd className={styles.number}>{result.randomizationNumber}</dd>
          </div>
          <div>
            <dt>{t('randomize.date')}</dt>
            <dd>{result.assignmentDate}</dd>
          </div>
          <div>
            <dt>{t('randomize.group')}</dt>
            <dd>{result.group ? t(`groups.${result.group}`) : t('randomize.groupHidden')}</dd>
          </div>
        </dl>
      </section>
    );
  }
  if (!mayRandomize) return null;

  return (
    <section className={styles.panel} aria-label={t('randomize.title')}>
      <div className={styles.head}>
        <div>
          <h2 className={styles.title}>{t('randomize.title')}</h2>
          <p className={styles.text}>{t('randomize.text')}</p>
        </div>
        <Button
          onClick={() => {
            setError(null);
            modals.open(RANDOMIZE_MODAL);
          }}
        >
          {t('randomize.button')}
        </Button>
      </div>
      <Modal name={RANDOMIZE_MODAL} title={t('randomize.modalTitle')} width="sm">
        <p className={styles.confirm}>{t('randomize.confirm', { subject: subject.subjectId })}</p>
        <FormAlert message={error} className={styles.error} />
        <div className={styles.modalActions}>
          <Button variant="secondary" onClick={() => modals.close(RANDOMIZE_MODAL)}>
            {t('randomize.cancel')}
          </Button>
          <Button disabled={randomize.isPending} onClick={() => void submit()}>
            {randomize.isPending ? t('randomize.pending') : t('randomize.submit')}
          </Button>
        </div>
      </Modal>
    </section>
  );
}
