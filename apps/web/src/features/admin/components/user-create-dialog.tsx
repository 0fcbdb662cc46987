import { createUserRequestSchema, type Locale, passwordIssues } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateUser } from '../api/create-user.ts';
import { fieldErrorKeys } from '../lib/field-errors.ts';
import { AdminDialog } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { Field, TextField } from './form-field.tsx';
import { PasswordRulesList } from './password-rules-list.tsx';
import { ServerError } from './server-error.tsx';

export function UserCreateDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <AdminDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('users.form.createTitle')}
      description={t('users.form.createDescription')}
    >
      <UserCreateForm onDone={() => onOpenChange(false)} />
    </AdminDialog>
  );
}

function UserCreateForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('admin');
  const createUser = useCreateUser();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [locale, setLocale] = useState<Locale>('ko');
  const [isAdmin, setIsAdmin] = useState(false);
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    // The server's own schema and password policy: the form refuses what the server would refuse.
    const parsed = createUserRequestSchema.safeParse({ email, name, contact, locale, isAdmin, password });
    const found = parsed.success ? {} : fieldErrorKeys(parsed.error);
    if (!found.password && passwordIssues(password, email.trim()).length > 0)
      found.password = 'validation.password';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    createUser.mutate(parsed.data, { onSuccess: onDone });
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
      <label className={styles.checkboxLabel}>
        <input type="checkbox" checked={isAdmin} onChange={(event) => setIsAdmin(event.target.checked)} />
        {t('users.form.admin')}
      </label>
      <ServerError error={createUser.error} />
      <div className={styles.dialogActions}>
        <button type="button" className={styles.button} onClick={onDone}>
          {t('actions.cancel')}
        </button>
        <button
          type="submit"
          className={`${styles.button} ${styles.primary}`}
          disabled={createUser.isPending}
        >
          {createUser.isPending ? t('actions.saving') : t('users.form.create')}
        </button>
      </div>
    </form>
  );
}
