import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { QueryMessageField } from '../../../components/query-message-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useBulkQueryAction } from '../api/query-list.ts';
import styles from './queries.module.css';

export const BULK_QUERY_MODAL = 'query-bulk';

export type BulkAction = 'close' | 'cancel';

/**
 * The query numbers a 409 of the bulk action names: the details list the refused queries, as ids or
 * as objects with an `id` (under `queries`, `queryIds` or `refused`).
 */
export function refusedQueryIds(details: unknown): number[] {
  if (!details || typeof details !== 'object') return [];
  const record = details as Record<string, unknown>;
  const list = record.queries ?? record.queryIds ?? record.refused;
  if (!Array.isArray(list)) return [];
  return list
    .map((entry) =>
      typeof entry === 'number'
        ? entry
        : entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'number'
          ? (entry as { id: number }).id
          : null,
    )
    .filter((id): id is number => id !== null);
}

interface BulkQueryDialogProps {
  studyId: number;
  action: BulkAction;
  queryIds: readonly number[];
  onDone: () => void;
}

/**
 * Closes or cancels the selected queries with one reason, after saying how many (issue 14). All or
 * nothing: when the server refuses some (409), nothing changed and the dialog names them.
 */
export function BulkQueryDialog(props: BulkQueryDialogProps) {
  const { t } = useTranslation('queries');
  const { action } = props;
  const count = props.queryIds.length;
  return (
    <Modal
      name={BULK_QUERY_MODAL}
      title={t(action === 'close' ? 'bulk.closeTitle' : 'bulk.cancelTitle')}
      description={t(action === 'close' ? 'bulk.closeDescription' : 'bulk.cancelDescription', { count })}
      width="sm"
    >
      <BulkForm {...props} />
    </Modal>
  );
}

function BulkForm({ studyId, action, queryIds, onDone }: BulkQueryDialogProps) {
  const { t } = useTranslation('queries');
  const id = useId();
  const modals = useModalStack();
  const toast = useToast();
  const bulk = useBulkQueryAction(studyId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const count = queryIds.length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reason = text.trim();
    if (!reason) {
      setProblem(t('bulk.reasonRequired'));
      return;
    }
    setProblem(null);
    try {
      const result = await bulk.mutateAsync({ action, queryIds: [...queryIds], text: reason });
      modals.close(BULK_QUERY_MODAL);
      toast(t('bulk.done', { count: result.updated }), 'success');
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const refused = refusedQueryIds(error.details);
        setProblem(
          refused.length > 0
            ? t('bulk.refused', { numbers: refused.map((number) => `#${number}`).join(', ') })
            : error.message,
        );
      } else {
        setProblem(error instanceof Error ? error.message : String(error));
      }
    }
  }

  return (
    <form className={styles.dialogForm} onSubmit={(event) => void submit(event)}>
      <QueryMessageField
        id={`${id}-reason`}
        label={t('bulk.reason')}
        value={text}
        onChange={setText}
        problem={problem}
        required
      />
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => modals.close(BULK_QUERY_MODAL)}>
          {t('bulk.back')}
        </Button>
        <Button type="submit" variant={action === 'cancel' ? 'danger' : 'primary'} disabled={bulk.isPending}>
          {t(action === 'close' ? 'bulk.confirmClose' : 'bulk.confirmCancel', { count })}
        </Button>
      </div>
    </form>
  );
}
