import { QUERY_BULK_MAX } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { QueryMessageField } from '../../../components/query-message-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useRaiseBulkQueries } from '../api/review-listings.ts';
import type { LabelledTarget } from '../lib/bulk-targets.ts';
import styles from './review-listings.module.css';

export const RAISE_QUERIES_MODAL = 'review-raise-queries';

interface RaiseQueriesDialogProps {
  studyId: number;
  targets: readonly LabelledTarget[];
  /** A target as the list names it: subject, visit, row, item. */
  describe: (target: LabelledTarget) => string;
  onDone: () => void;
}

/**
 * "Raise N queries" (issue 50 item 4): one text, the list of the items it goes on, all or nothing.
 * When the server refuses (an item already queried, a lock, an item not of the form), nothing was
 * raised and its message says why.
 */
export function RaiseQueriesDialog(props: RaiseQueriesDialogProps) {
  const { t } = useTranslation('reviewListings');
  const count = props.targets.length;
  return (
    <Modal
      name={RAISE_QUERIES_MODAL}
      title={t('bulk.title', { count })}
      description={t('bulk.description')}
      width="md"
    >
      <RaiseForm {...props} />
    </Modal>
  );
}

function RaiseForm({ studyId, targets, describe, onDone }: RaiseQueriesDialogProps) {
  const { t } = useTranslation('reviewListings');
  const id = useId();
  const modals = useModalStack();
  const toast = useToast();
  const raise = useRaiseBulkQueries(studyId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const count = targets.length;
  const tooMany = count > QUERY_BULK_MAX;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message) {
      setProblem(t('bulk.textRequired'));
      return;
    }
    setProblem(null);
    try {
      const result = await raise.mutateAsync({
        text: message,
        targets: targets.map(({ subjectPk, visitKey, formKey, itemPath }) => ({
          subjectPk,
          visitKey,
          formKey,
          itemPath,
        })),
      });
      modals.close(RAISE_QUERIES_MODAL);
      toast(t('bulk.done', { count: result.queryIds.length }), 'success');
      onDone();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form className={styles.dialogForm} onSubmit={(event) => void submit(event)}>
      <QueryMessageField
        id={`${id}-text`}
        label={t('bulk.text')}
        value={text}
        onChange={setText}
        problem={problem}
        required
      />
      <p className={styles.targetsLabel} id={`${id}-targets`}>
        {t('bulk.targets')}
      </p>
      <ol className={styles.targets} aria-labelledby={`${id}-targets`} data-testid="bulk-targets">
        {targets.map((target) => (
          <li key={target.id}>{describe(target)}</li>
        ))}
      </ol>
      {tooMany ? <p className={styles.problem}>{t('bulk.tooMany', { max: QUERY_BULK_MAX })}</p> : null}
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => modals.close(RAISE_QUERIES_MODAL)}>
          {t('bulk.back')}
        </Button>
        <Button type="submit" disabled={raise.isPending || tooMany || count === 0}>
          {t('bulk.confirm', { count })}
        </Button>
      </div>
    </form>
  );
}
