import { type AdminStudy, createMembershipRequestSchema, type Role, roles } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateMembership } from '../api/create-membership.ts';
import { useUsers } from '../api/get-users.ts';
import { roleNeedsSites, siteChoiceError } from '../lib/membership-sites.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { Field } from './form-field.tsx';
import { SiteCheckboxes } from './site-checkboxes.tsx';

interface MembershipCreateDialogProps {
  study: AdminStudy;
  onOpenChange: (open: boolean) => void;
}

/** Give a user a role in the study; the parent mounts it only while it is open. */
export function MembershipCreateDialog({ study, onOpenChange }: MembershipCreateDialogProps) {
  const { t } = useTranslation('admin');
  const users = useUsers();
  const createMembership = useCreateMembership(study.id);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('CRC');
  const [siteIds, setSiteIds] = useState<number[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  // Deactivated accounts cannot log in: a new role for one would be of no use.
  const activeUsers = (users.data ?? [])
    .filter((user) => user.active)
    .sort((a, b) => a.name.localeCompare(b.name));

  function submit(event: FormEvent) {
    event.preventDefault();
    const sitesToSend = roleNeedsSites(role) ? siteIds : [];
    const parsed = createMembershipRequestSchema.safeParse({
      userId: Number(userId),
      role,
      siteIds: sitesToSend,
    });
    const found = {
      userId: parsed.success || userId !== '' ? undefined : 'validation.userRequired',
      siteIds: siteChoiceError(role, sitesToSend),
    };
    setErrors(found);
    if (!parsed.success || found.userId || found.siteIds) return;
    createMembership.mutate(parsed.data, { onSuccess: () => onOpenChange(false) });
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('memberships.form.createTitle')}
      description={t('memberships.form.createDescription', { study: study.code })}
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field label={t('memberships.form.user')} error={errors.userId}>
          {({ inputId, describedBy, invalid }) => (
            <select
              id={inputId}
              className={styles.select}
              value={userId}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(event) => setUserId(event.target.value)}
            >
              <option value="">{t('memberships.form.chooseUser')}</option>
              {activeUsers.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name} ({user.email})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('memberships.form.role')}>
          {({ inputId }) => (
            <select
              id={inputId}
              className={styles.select}
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
            >
              {roles.map((value) => (
                <option key={value} value={value}>
                  {t(`roles.${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {roleNeedsSites(role) ? (
          <SiteCheckboxes
            sites={study.sites}
            selected={siteIds}
            onChange={setSiteIds}
            error={errors.siteIds}
          />
        ) : (
          <p className={styles.hint}>{t('memberships.form.allSitesHint')}</p>
        )}
        <FormActions
          error={createMembership.error ?? users.error}
          pending={createMembership.isPending}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </AdminDialog>
  );
}
