import { initialsSchema, type SiteSummary, type SubjectSummary, todayInKorea } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { DateTextField, TextField } from '../../../components/text-field.tsx';
import { useCreateSubject } from '../api/subjects.ts';
import { type FieldErrors, useCheckedForm } from './checked-form.ts';
import styles from './subjects.module.css';

export const ADD_SUBJECT_MODAL = 'add-subject';

/** The fields checked here and by the server. */
type AddSubjectField = 'site' | 'consentDate' | 'initials';

/**
 * Registers a subject (spec §2 "Add-subject modal"): site (only the user's sites in the study), consent
 * date (not after today in Korea), initials (the contract's rule). The server assigns the screening
 * number; the modal shows it after creation.
 */
export function AddSubjectModal({
  studyId,
  sites,
  onOpenSubject,
}: {
  studyId: number;
  sites: readonly SiteSummary[];
  onOpenSubject: (subject: SubjectSummary) => void;
}) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const create = useCreateSubject(studyId);
  const siteId = useId();
  const today = todayInKorea();
  // One site: nothing to choose.
  const [site, setSite] = useState(sites.length === 1 ? String(sites[0]?.id) : '');
  const [consentDate, setConsentDate] = useState('');
  const [initials, setInitials] = useState('');
  const [created, setCreated] = useState<SubjectSummary | null>(null);
  const { errors, clearError, serverError, submit } = useCheckedForm<AddSubjectField>({
    validate,
    send,
    fieldOf: (refusal) => (refusal.code === 'consent_date_in_future' ? 'consentDate' : null),
  });

  function validate() {
    const next: FieldErrors<AddSubjectField> = {};
    if (!sites.some((s) => String(s.id) === site)) next.site = t('add.errors.site');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(consentDate)) next.consentDate = t('add.errors.consentDate');
    else if (consentDate > today) next.consentDate = t('add.errors.consentDateFuture', { today });
    if (!initialsSchema.safeParse(initials).success) next.initials = t('add.errors.initials');
    return next;
  }

  async function send() {
    const subject = await create.mutateAsync({
      siteId: Number(site),
      consentDate,
      initials: initialsSchema.parse(initials),
    });
    setCreated(subject);
  }

  return (
    <Modal name={ADD_SUBJECT_MODAL} title={t('add.title')}>
      {created ? (
        <div className={styles.modalBody} role="status">
          <p>{t('add.created')}</p>
          <dl className={styles.createdInfo}>
            <dt>{t('add.screeningNumber')}</dt>
            <dd data-testid="screening-number">{created.subjectId}</dd>
            <dt>{t('list.columns.initials')}</dt>
            <dd>{created.initials}</dd>
            <dt>{t('add.site')}</dt>
            <dd>{created.siteCode}</dd>
          </dl>
          <div className={styles.modalActions}>
            <Button variant="secondary" onClick={() => modals.close(ADD_SUBJECT_MODAL)}>
              {t('add.close')}
            </Button>
            <Button onClick={() => onOpenSubject(created)}>{t('add.openSubject')}</Button>
          </div>
        </div>
      ) : (
        <form className={styles.modalBody} onSubmit={(event) => void submit(event)} noValidate>
          <div className={styles.field}>
            <label htmlFor={siteId} className={styles.label}>
              {t('add.site')}
            </label>
            <select
              id={siteId}
              className={styles.select}
              value={site}
              aria-invalid={errors.site ? true : undefined}
              aria-describedby={errors.site ? `${siteId}-error` : undefined}
              onChange={(event) => {
                setSite(event.target.value);
                clearError('site');
              }}
            >
              <option value="">{t('add.sitePlaceholder')}</option>
              {sites.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.code} · {option.name}
                </option>
              ))}
            </select>
            {errors.site ? (
              <div id={`${siteId}-error`} className={styles.fieldError}>
                {errors.site}
              </div>
            ) : null}
          </div>
          <DateTextField
            label={t('add.consentDate')}
            value={consentDate}
            error={errors.consentDate}
            onChange={(event) => {
              setConsentDate(event.target.value);
              clearError('consentDate');
            }}
          />
          <TextField
            label={t('add.initials')}
            value={initials}
            maxLength={4}
            autoComplete="off"
            error={errors.initials}
            hint={t('add.initialsHint')}
            onChange={(event) => {
              setInitials(event.target.value.toUpperCase());
              clearError('initials');
            }}
          />
          <p className={styles.muted}>{t('add.screeningNumberNote')}</p>
          <FormAlert message={serverError} className={styles.formError} />
          <div className={styles.modalActions}>
            <Button variant="secondary" onClick={() => modals.close(ADD_SUBJECT_MODAL)}>
              {t('add.cancel')}
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {t('add.submit')}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
