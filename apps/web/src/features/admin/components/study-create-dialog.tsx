import { createStudyRequestSchema, type StudyKind, studyKinds } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateStudy } from '../api/create-study.ts';
import { fieldErrorKeys } from '../lib/field-errors.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { Field, TextField } from './form-field.tsx';

/**
 * A new study (issue 45): it starts in design, the administrator who creates it its first ADMIN.
 * Its sites and members are added on their pages, its design is uploaded from the study list.
 */
export function StudyCreateDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('admin');
  const createStudy = useCreateStudy();
  const [code, setCode] = useState('');
  const [protocolNumber, setProtocolNumber] = useState('');
  const [titleKo, setTitleKo] = useState('');
  const [titleEn, setTitleEn] = useState('');
  const [sponsor, setSponsor] = useState('');
  const [kind, setKind] = useState<StudyKind>('device');
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createStudyRequestSchema.safeParse({
      code,
      protocolNumber,
      titleKo,
      titleEn,
      sponsor,
      kind,
      content,
    });
    setErrors(parsed.success ? {} : fieldErrorKeys(parsed.error));
    if (!parsed.success) return;
    createStudy.mutate(parsed.data, { onSuccess: () => onOpenChange(false) });
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('studies.form.createTitle')}
      description={t('studies.form.createDescription')}
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <div className={styles.fieldRow}>
          <TextField
            label={t('studies.form.code')}
            value={code}
            onChange={setCode}
            error={errors.code}
            hint={t('studies.form.codeHint')}
            autoComplete="off"
            maxLength={20}
          />
          <TextField
            label={t('studies.form.protocolNumber')}
            value={protocolNumber}
            onChange={setProtocolNumber}
            error={errors.protocolNumber}
            autoComplete="off"
            maxLength={50}
          />
        </div>
        <TextField
          label={t('studies.form.titleKo')}
          value={titleKo}
          onChange={setTitleKo}
          error={errors.titleKo}
          autoComplete="off"
          maxLength={300}
        />
        <TextField
          label={t('studies.form.titleEn')}
          value={titleEn}
          onChange={setTitleEn}
          error={errors.titleEn}
          autoComplete="off"
          maxLength={300}
        />
        <div className={styles.fieldRow}>
          <TextField
            label={t('studies.form.sponsor')}
            value={sponsor}
            onChange={setSponsor}
            error={errors.sponsor}
            autoComplete="off"
            maxLength={200}
          />
          <Field label={t('studies.form.kind')} error={errors.kind}>
            {({ inputId, describedBy }) => (
              <select
                id={inputId}
                className={styles.select}
                value={kind}
                aria-describedby={describedBy}
                onChange={(event) => setKind(event.target.value as StudyKind)}
              >
                {studyKinds.map((option) => (
                  <option key={option} value={option}>
                    {t(`studies.kinds.${option}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <TextField
          label={t('studies.form.content')}
          value={content}
          onChange={setContent}
          error={errors.content}
          hint={t('studies.form.contentHint')}
          autoComplete="off"
          maxLength={2000}
        />
        <FormActions
          error={createStudy.error}
          pending={createStudy.isPending}
          onCancel={() => onOpenChange(false)}
          submitLabel={t('studies.form.create')}
        />
      </form>
    </AdminDialog>
  );
}
