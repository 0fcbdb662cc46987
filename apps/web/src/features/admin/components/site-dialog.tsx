import { type AdminStudy, type SiteSummary, siteRequestSchema } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveSite } from '../api/save-site.ts';
import { fieldErrorKeys } from '../lib/field-errors.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { TextField } from './form-field.tsx';

interface SiteDialogProps {
  study: AdminStudy;
  /** Absent: add a site. */
  site?: SiteSummary | undefined;
  onOpenChange: (open: boolean) => void;
}

/** Add or edit a site; the parent mounts it only while it is open. */
export function SiteDialog({ study, site, onOpenChange }: SiteDialogProps) {
  const { t } = useTranslation('admin');
  const saveSite = useSaveSite();
  const [code, setCode] = useState(site?.code ?? '');
  const [name, setName] = useState(site?.name ?? '');
  const [institutionNumber, setInstitutionNumber] = useState(site?.institutionNumber ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = siteRequestSchema.safeParse({ code, name, institutionNumber });
    setErrors(parsed.success ? {} : fieldErrorKeys(parsed.error));
    if (!parsed.success) return;
    saveSite.mutate(
      { studyId: study.id, siteId: site?.id, site: parsed.data },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t(site ? 'sites.form.editTitle' : 'sites.form.createTitle')}
      description={
        site
          ? t('sites.form.editDescription', { study: study.code, code: site.code })
          : t('sites.form.createDescription', { study: study.code })
      }
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <div className={styles.fieldRow}>
          <TextField
            label={t('sites.form.code')}
            value={code}
            onChange={setCode}
            error={errors.code}
            hint={t('sites.form.codeHint')}
            autoComplete="off"
            maxLength={20}
          />
          <TextField
            label={t('sites.form.institutionNumber')}
            value={institutionNumber}
            onChange={setInstitutionNumber}
            error={errors.institutionNumber}
            hint={t('sites.form.institutionNumberHint')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={2}
          />
        </div>
        <TextField
          label={t('sites.form.name')}
          value={name}
          onChange={setName}
          error={errors.name}
          autoComplete="off"
          maxLength={100}
        />
        <FormActions
          error={saveSite.error}
          pending={saveSite.isPending}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </AdminDialog>
  );
}
