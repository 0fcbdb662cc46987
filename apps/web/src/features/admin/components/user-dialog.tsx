import {
  type AdminUser,
  createUserRequestSchema,
  type Locale,
  passwordIssues,
  type UpdateUserRequest,
  updateUserRequestSchema,
} from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { fieldErrorKeys } from '../lib/field-errors.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { Field, TextField } from './form-field.tsx';
import { PasswordRulesList } from './password-rules-list.tsx';

interface UserDialogProps {
  /** The user to edit, or null to create one. */
  user: AdminUser | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Creating a user (with a first password) or editing one (and deactivating or reactivating it). */
export function UserDialog({ user, open, onOpenChange }: UserDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <AdminDialog
      open={open}
      onOpenChange={onOpenChange}
      title={user ? t('users.form.editTitle') : t('users.form.createTitle')}
      description={
        user ? t('users.form.editDescription', { name: user.name }) : t('users.form.createDescription')
      }
    >
      <UserForm user={user} onDone={() => onOpenChange(false)} />
      {user ? <ActivationSection user={user} /> : null}
    </AdminDialog>
  );
}

function UserForm({ user, onDone }: { user: AdminUser | null; onDone: () => void }) {
  const { t } = useTranslation('admin');
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const saving = user ? updateUser : createUser;
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [contact, setContact] = useState(user?.contact ?? '');
  const [locale, setLocale] = useState<Locale>(user?.locale ?? 'ko');
  const [isAdmin, setIsAdmin] = useState(user?.isAdmin ?? false);
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function create() {
    // The server's own schema and password policy: the form refuses what the server would refuse.
    const parsed = createUserRequestSchema.safeParse({ email, name, contact, locale, isAdmin, password });
    const found = parsed.success ? {} : fieldErrorKeys(parsed.error);
    if (!found.password && passwordIssues(password, email.trim()).length > 0)
      found.password = 'validation.password';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    createUser.mutate(parsed.data, { onSuccess: onDone });
  }

  function update(user: AdminUser) {
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

  function submit(event: FormEvent) {
    event.preventDefault();
    if (user) update(user);
    else create();
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
      {user ? null : (
        // The first password is set here; later ones through the password reset.
        <TextField
          label={t('users.form.password')}
          type={showPassword ? 'text' : 'password'}
          value={password}
          onChange={setPassword}
          error={errors.password}
          autoComplete="new-password"
          after={
            <>
              <PasswordRulesList password={password} email={email} />
              <label className={styles.checkboxLabel}>
                <input
                  type="checkbox"
                  checked={showPassword}
                  onChange={(event) => setShowPassword(event.target.checked)}
                />
                {t('users.form.showPassword')}
              </label>
            </>
          }
        />
      )}
      <label className={styles.checkboxLabel}>
        <input type="checkbox" checked={isAdmin} onChange={(event) => setIsAdmin(event.target.checked)} />
        {t('users.form.admin')}
      </label>
      <FormActions
        error={saving.error}
        pending={saving.isPending}
        onCancel={onDone}
        submitLabel={user ? undefined : t('users.form.create')}
      />
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
