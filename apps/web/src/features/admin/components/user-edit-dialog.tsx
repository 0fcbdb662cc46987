import { type AdminUser, type Locale, type UpdateUserRequest, updateUserRequestSchema } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateUser } from '../api/update-user.ts';
import { fieldErrorKeys } from '../lib/field-errors.ts';
import { AdminDialog } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { Field, TextField } from './form-field.tsx';
import { ServerError } from './server-error.tsx';

interface UserEditDialogProps {
  user: AdminUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function UserEditDialog({ user, open, onOpenChange }: UserEditDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <AdminDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('users.form.editTitle')}
      description={t('users.form.editDescription', { name: user.name })}
    >
      <UserEditForm user={user} onDone={() => onOpenChange(false)} />
      <ActivationSection user={user} />
    </AdminDialog>
  );
}

function UserEditForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t } = useTranslation('admin');
  const updateUser = useUpdateUser();
  const [email, setEmail] = useState(user.email);
  const [name, setName] = useState(user.name);
  const [contact, setContact] = useState(user.contact);
  const [locale, setLocale] = useState<Locale>(user.locale);
  const [isAdmin, setIsAdmin] = useState(user.isAdmin);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = updateUserRequestSchema.safeParse({ email, name, contact, locale, isAdmin });
    setErrors(parsed.success ? {} : fieldErrorKeys(parsed.error));
    if (!parsed.success) return;
    // Only what changed is sent: the audit record then shows exactly what the administrator changed.
    const changes: UpdateUserRequest = {};
    if (parsed.data.email !== user.email) changes.email = parsed.data.email;
    if (parsed.data.name !== user.name) changes.name = parsed.data.name;
    if (parsed.data.contact !== user.contact) changes.contact = parsed.data.contact;
    if (parsed.data.locale !== user.locale) changes.locale = parsed.data.locale;
    if (parsed.data.isAdmin !== user.isAdmin) changes.isAdmin = parsed.data.isAdmin;
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    updateUser.mutate({ userId: user.id, ...changes }, { onSuccess: onDone });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div className={styles.fieldRow}>
        <TextField
          label={t('users.form.name')}
          value={name}
          onChange={setName}
          error={errors.name}
          autoComplete="off"
          maxLength={100}
        />
        <TextField
          label={t('users.form.email')}
          type="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
          autoComplete="off"
        />
      </div>
      <div className={styles.fieldRow}>
        <TextField
          label={t('users.form.contact')}
          type="tel"
          value={contact}
          onChange={setContact}
          error={errors.contact}
          hint={t('users.form.contactHint')}
          maxLength={40}
        />
        <Field label={t('users.form.locale')} error={errors.locale}>
          {({ inputId, describedBy }) => (
            <select
              id={inputId}
              className={styles.select}
              value={locale}
              aria-describedby={describedBy}
              onChange={(event) => setLocale(event.target.value === 'en' ? 'en' : 'ko')}
            >
              <option value="ko">{t('locales.ko')}</option>
              <option value="en">{t('locales.en')}</option>
            </select>
          )}
        </Field>
      </div>
      <label className={styles.checkboxLabel}>
        <input type="checkbox" checked={isAdmin} onChange={(event) => setIsAdmin(event.target.checked)} />
        {t('users.form.admin')}
      </label>
      <ServerError error={updateUser.error} />
      <div className={styles.dialogActions}>
        <button type="button" className={styles.button} onClick={onDone}>
          {t('actions.cancel')}
        </button>
        <button
          type="submit"
          className={`${styles.button} ${styles.primary}`}
          disabled={updateUser.isPending}
        >
          {updateUser.isPending ? t('actions.saving') : t('actions.save')}
        </button>
      </div>
    </form>
  );
}

/** Deactivate or reactivate, apart from the form and behind a confirmation: it signs the user out. */
function ActivationSection({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const updateUser = useUpdateUser();
  const [confirming, setConfirming] = useState(false);
  const action = user.active ? 'deactivate' : 'reactivate';
  return (
    <div className={styles.statusBox}>
      <div>
        <h3>{t('users.activation.heading')}</h3>
        <p>{t(user.active ? 'users.activation.isActive' : 'users.activation.isInactive')}</p>
      </div>
      <button
        type="button"
        className={`${styles.button} ${user.active ? styles.dangerOutline : ''}`}
        onClick={() => {
          updateUser.reset();
          setConfirming(true);
        }}
      >
        {t(`users.activation.${action}`)}
      </button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t(`users.activation.${action}Title`, { name: user.name })}
        description={t(`users.activation.${action}Description`)}
        confirmLabel={t(`users.activation.${action}`)}
        tone={user.active ? 'danger' : 'primary'}
        pending={updateUser.isPending}
        error={updateUser.error}
        onConfirm={() =>
          updateUser.mutate(
            { userId: user.id, active: !user.active },
            { onSuccess: () => setConfirming(false) },
          )
        }
      />
    </div>
  );
}
