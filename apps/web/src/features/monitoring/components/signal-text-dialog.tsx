import { QUERY_TEXT_MAX } from '@cdms/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { CountedTextArea } from '../../../components/counted-text-area.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import styles from './monitoring.module.css';

/**
 * A signal's action that takes a text of up to a query's length (the queries' text, the note for the
 * next visit): the shared dialog pattern of `ReasonDialog` — required text with its counter, the
 * server's refusal inside, the confirm button busy until the answer — with a query's limit instead of
 * a reason's. Its content unmounts when closed, so it opens empty.
 */
export function SignalTextDialog({
  name,
  title,
  description,
  label,
  confirmLabel,
  disabled = false,
  onSubmit,
}: {
  name: string;
  title: string;
  description?: ReactNode;
  label: string;
  confirmLabel: string;
  /** Nothing may be sent (a signal naming no subject cannot raise queries). */
  disabled?: boolean;
  /** Resolves to null when done (the dialog closes), or to the problem to show under the text. */
  onSubmit: (text: string) => Promise<string | null>;
}) {
  return (
    <Modal name={name} title={title} description={description} width="sm">
      <TextForm
        name={name}
        label={label}
        confirmLabel={confirmLabel}
        disabled={disabled}
        onSubmit={onSubmit}
      />
    </Modal>
  );
}

function TextForm({
  name,
  label,
  confirmLabel,
  disabled,
  onSubmit,
}: {
  name: string;
  label: string;
  confirmLabel: string;
  disabled: boolean;
  onSubmit: (text: string) => Promise<string | null>;
}) {
  const { t } = useTranslation('monitoring');
  const { t: ui } = useTranslation('ui');
  const id = useId();
  const modals = useModalStack();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) {
      setProblem(t('text.required'));
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      const refused = await onSubmit(trimmed);
      if (refused === null) {
        if (modals.isOpen(name)) modals.close(name);
        return;
      }
      setProblem(refused);
    } finally {
      setPending(false);
    }
  }

  return (
    <form className={styles.dialogForm} noValidate onSubmit={(event) => void submit(event)}>
      <CountedTextArea
        id={`${id}-text`}
        label={label}
        value={text}
        onChange={setText}
        maxLength={QUERY_TEXT_MAX}
        counter={t('text.counter', { count: text.length, max: QUERY_TEXT_MAX })}
        problem={problem}
        required
        rows={4}
      />
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => modals.close(name)}>
          {ui('cancel')}
        </Button>
        <Button type="submit" disabled={pending || disabled} aria-busy={pending}>
          {confirmLabel}
        </Button>
      </div>
    </form>
  );
}
