import { ENROLLMENT_TARGET_MAX, enrollmentTargetRequestSchema } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useSetEnrollmentTarget } from '../api/reports-api.ts';
import styles from './reports.module.css';

export const ENROLLMENT_TARGET_MODAL = 'enrollment-target';

export interface TargetSite {
  siteId: number;
  label: string;
  target: number;
  targetIsDefault: boolean;
}

/**
 * A site's enrollment target (issue 17; DM and ADMIN): a whole number of randomized subjects, or the
 * study's default. The server checks again and audits the change; its refusal shows in the dialog.
 */
export function EnrollmentTargetDialog({
  studyId,
  site,
  defaultTarget,
}: {
  studyId: number;
  site: TargetSite;
  defaultTarget: number;
}) {
  const { t } = useTranslation('reports');
  const modals = useModalStack();
  const toast = useToast();
  const save = useSetEnrollmentTarget(studyId);
  const [useDefault, setUseDefault] = useState(site.targetIsDefault);
  const [text, setText] = useState(site.targetIsDefault ? '' : String(site.target));
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The server's own request schema decides what a target may be; the browser only asks it first.
    const request = enrollmentTargetRequestSchema.safeParse({
      target: useDefault ? null : text.trim() === '' ? Number.NaN : Number(text.trim()),
    });
    if (!request.success) {
      setError(t('target.invalid', { max: ENROLLMENT_TARGET_MAX }));
      return;
    }
    try {
      await save.mutateAsync({ siteId: site.siteId, target: request.data.target });
      toast(t('target.saved'), 'success');
      modals.close(ENROLLMENT_TARGET_MODAL);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <Modal name={ENROLLMENT_TARGET_MODAL} title={t('target.title', { site: site.label })}>
      <form className={styles.dialogBody} onSubmit={(event) => void submit(event)} noValidate>
        <label className={styles.checkbox}>
          <input type="checkbox" checked={useDefault} onChange={(e) => setUseDefault(e.target.checked)} />
          {t('target.useDefault', { target: defaultTarget })}
        </label>
        <TextField
          label={t('target.label')}
          inputMode="numeric"
          maxLength={6}
          disabled={useDefault}
          value={useDefault ? '' : text}
          hint={t('target.hint')}
          onChange={(e) => setText(e.target.value)}
        />
        <FormAlert message={error} className={styles.formError} />
        <div className={styles.dialogActions}>
          <Button variant="secondary" onClick={() => modals.close(ENROLLMENT_TARGET_MODAL)}>
            {t('target.cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {t('target.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
