import { REASON_MAX } from '@cdms/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { CountedTextArea } from './counted-text-area.tsx';
import { Modal } from './modal.tsx';
import { useModalStack } from './modal-stack-provider.tsx';
import styles from './reason-dialog.module.css';

interface ReasonDialogProps {
  /** The modal's name in the stack. */
  name: string;
  title: string;
  description?: ReactNode;
  /** The reason field's label. */
  reasonLabel: string;
  confirmLabel: string;
  /** `danger` for what takes something away (unlock, un-verify). */
  tone?: 'primary' | 'danger';
  /** Longest text; a reason's (`REASON_MAX`) unless the text is another (a query's, a note's). */
  maxLength?: number;
  /** What an empty text is told; "enter a reason" unless the text is another. */
  requiredMessage?: string;
  /** Nothing may be sent yet (the confirm button stays off). */
  disabled?: boolean;
  /** Fields above the reason (what the change applies to); they belong to the same form. */
  children?: ReactNode;
  /**
   * Sends the change. Resolves to null when it is done (the dialog closes), or to the problem to show
   * under the reason (the server's refusal in the user's language); the dialog stays open then.
   */
  onSubmit: (reason: string) => Promise<string | null>;
}

/**
 * The one dialog for a change that needs a reason or a text (issue 15: un-verifying an item, freezing,
 * locking and their reversal; issue 50: a signal's queries and note): the text is required, the
 * server's refusal is shown in the dialog, and the confirm button waits for the answer. Its content
 * unmounts when closed, so it opens empty.
 */
export function ReasonDialog({ name, title, description, ...form }: ReasonDialogProps) {
  return (
    <Modal name={name} title={title} description={description} width="sm">
      <ReasonForm name={name} {...form} />
    </Modal>
  );
}

function ReasonForm({
  name,
  reasonLabel,
  confirmLabel,
  tone = 'primary',
  maxLength = REASON_MAX,
  requiredMessage,
  disabled = false,
  children,
  onSubmit,
}: Omit<ReasonDialogProps, 'title' | 'description'>) {
  const { t } = useTranslation('ui');
  const id = useId();
  const modals = useModalStack();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setProblem(requiredMessage ?? t('reason.required'));
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      const refused = await onSubmit(text);
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
    <form className={styles.form} noValidate onSubmit={(event) => void submit(event)}>
      {children}
      <CountedTextArea
        id={`${id}-reason`}
        label={reasonLabel}
        value={reason}
        onChange={setReason}
        maxLength={maxLength}
        counter={t('reason.counter', { count: reason.length, max: maxLength })}
        problem={problem}
        required
        rows={3}
      />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => modals.close(name)}>
          {t('cancel')}
        </Button>
        <Button
          type="submit"
          variant={tone === 'danger' ? 'danger' : 'primary'}
          disabled={pending || disabled}
          aria-busy={pending}
        >
          {confirmLabel}
        </Button>
      </div>
    </form>
  );
}
