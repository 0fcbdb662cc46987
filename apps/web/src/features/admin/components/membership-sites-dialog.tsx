import { type AdminStudy, type Membership, updateMembershipRequestSchema } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateMembershipSites } from '../api/update-membership.ts';
import { siteChoiceError } from '../lib/membership-sites.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { SiteCheckboxes } from './site-checkboxes.tsx';

interface MembershipSitesDialogProps {
  study: AdminStudy;
  membership: Membership;
  onOpenChange: (open: boolean) => void;
}

/** Change the sites of a site role (PI, SI, CRC, CRA); the parent mounts it only while it is open. */
export function MembershipSitesDialog({ study, membership, onOpenChange }: MembershipSitesDialogProps) {
  const { t } = useTranslation('admin');
  const updateSites = useUpdateMembershipSites(study.id);
  const [siteIds, setSiteIds] = useState<number[]>(membership.siteIds);
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = updateMembershipRequestSchema.safeParse({ siteIds });
    const found = siteChoiceError(membership.role, siteIds);
    setError(found);
    if (!parsed.success || found) return;
    updateSites.mutate(
      { membershipId: membership.id, siteIds: parsed.data.siteIds },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('memberships.form.editTitle')}
      description={t('memberships.form.editDescription', {
        name: membership.userName,
        role: membership.role,
      })}
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <SiteCheckboxes sites={study.sites} selected={siteIds} onChange={setSiteIds} error={error} />
        <FormActions
          error={updateSites.error}
          pending={updateSites.isPending}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </AdminDialog>
  );
}
