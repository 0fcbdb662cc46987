import { type NotificationEventType, notificationEventTypes } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  useNotificationPreferences,
  useUpdateNotificationPreferences,
} from '../api/notification-preferences.ts';
import { NOTIFICATION_PREFERENCES_MODAL } from './modal-names.ts';
import styles from './notification-preferences-dialog.module.css';

/** The user's choice of e-mails per event type (issue 18): each on unless turned off; audited by the server. */
export function NotificationPreferencesDialog() {
  const { t } = useTranslation('notifications');
  return (
    <Modal name={NOTIFICATION_PREFERENCES_MODAL} title={t('title')}>
      <NotificationPreferencesForm />
    </Modal>
  );
}

function NotificationPreferencesForm() {
  const { t } = useTranslation('notifications');
  const toast = useToast();
  const { close } = useModalStack();
  const current = useNotificationPreferences(true);
  const update = useUpdateNotificationPreferences();
  const [chosen, setChosen] = useState<Partial<Record<NotificationEventType, boolean>>>({});
  const [error, setError] = useState<string | null>(null);
  const saved = new Map(current.data?.preferences.map((entry) => [entry.eventType, entry.email]));
  const isChosen = (eventType: NotificationEventType) => chosen[eventType] ?? saved.get(eventType) ?? true;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changed = notificationEventTypes
      .filter((eventType) => chosen[eventType] !== undefined && chosen[eventType] !== saved.get(eventType))
      .map((eventType) => ({ eventType, email: isChosen(eventType) }));
    if (changed.length === 0) {
      close(NOTIFICATION_PREFERENCES_MODAL);
      return;
    }
    setError(null);
    update.mutate(changed, {
      onSuccess: () => {
        close(NOTIFICATION_PREFERENCES_MODAL);
        toast(t('saved'), 'success');
      },
      onError: (caught) => setError(errorText(caught)),
    });
  }

  if (current.isPending) return <p role="status">{t('loading')}</p>;
  if (current.isError) return <p role="alert">{current.error.message}</p>;
  return (
    <form className={styles.form} onSubmit={submit}>
      <p className={styles.intro}>{t('intro')}</p>
      <fieldset className={styles.choices}>
        <legend className={styles.legend}>{t('legend')}</legend>
        {notificationEventTypes.map((eventType) => (
          <label key={eventType} className={styles.choice}>
            <input
              type="checkbox"
              checked={isChosen(eventType)}
              onChange={(e) => setChosen((before) => ({ ...before, [eventType]: e.target.checked }))}
            />
            <span>
              <span className={styles.name}>{t(`events.${eventType}.name`)}</span>
              <span className={styles.detail}>{t(`events.${eventType}.detail`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormAlert message={error} className={styles.error} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => close(NOTIFICATION_PREFERENCES_MODAL)}>
          {t('cancel')}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {t('save')}
        </Button>
      </div>
    </form>
  );
}
