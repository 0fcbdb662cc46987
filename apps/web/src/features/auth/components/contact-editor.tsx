import { updateContactRequestSchema } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useUpdateContact } from '../api/update-contact.ts';
import styles from './contact-editor.module.css';

/** The contact number with an inline edit form (PUT /api/auth/contact). */
export function ContactEditor({ contact }: { contact: string }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const update = useUpdateContact();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(contact);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  function startEditing() {
    setValue(contact);
    setError(null);
    setEditing(true);
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The same schema the server validates with: the user hears about a bad number before sending.
    const parsed = updateContactRequestSchema.safeParse({ contact: value });
    if (!parsed.success) {
      setError(t('contact.invalid'));
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: () => {
        setEditing(false);
        toast(t('contact.saved'), 'success');
      },
      onError: (caught) => setError(errorText(caught)),
    });
  }

  if (!editing) {
    return (
      <div className={styles.view}>
        {contact ? (
          <span data-testid="account-contact">{contact}</span>
        ) : (
          <span className={styles.muted}>{t('contact.none')}</span>
        )}
        <Button variant="ghost" size="sm" className={styles.editButton} onClick={startEditing}>
          {t('contact.edit')}
        </Button>
      </div>
    );
  }

  return (
    <form className={styles.form} onSubmit={save} noValidate>
      <input
        className={styles.input}
        type="tel"
        autoComplete="tel"
        aria-label={t('account.contact')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={t('contact.placeholder')}
        maxLength={40}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this field
        autoFocus
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button variant="secondary" size="sm" onClick={() => setEditing(false)} disabled={update.isPending}>
          {t('contact.cancel')}
        </Button>
        <Button type="submit" size="sm" disabled={update.isPending}>
          {t('contact.save')}
        </Button>
      </div>
    </form>
  );
}
