import {
  type OverviewResponse,
  REASON_MAX,
  todayInKorea,
  type UnscheduledVisit,
  unscheduledVisitDateProblem,
} from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { DateTextField, TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateText, isCalendarDate } from '../../../lib/date-text.ts';
import { useUnscheduledVisitChange } from '../api/subjects.ts';
import { type FieldErrors, useCheckedForm } from './checked-form.ts';
import styles from './subjects.module.css';

export const ADD_UNSCHEDULED_VISIT_MODAL = 'add-unscheduled-visit';
export const DELETE_UNSCHEDULED_VISIT_MODAL = 'delete-unscheduled-visit';

/** The server's refusals of the date, shown under the date field. */
const DATE_REFUSALS = new Set(['unscheduled_visit_date_in_future', 'unscheduled_visit_before_consent']);

/** The fields checked here and by the server. */
type AddVisitField = 'visitDate' | 'reason';

interface AddUnscheduledVisitProps {
  studyId: number;
  overview: OverviewResponse;
  /** The new visit's label as the overview will show it, for the confirmation. */
  visitLabel: (visit: UnscheduledVisit) => string;
}

/**
 * Adds an unscheduled visit to the subject (issue 19 item 1): its date (YYYY-MM-DD, not after today in
 * Korea, not before consent) and its reason, checked here as the server checks them; the server's
 * refusal is shown under the field it concerns, or under the form.
 */
export function AddUnscheduledVisitDialog(props: AddUnscheduledVisitProps) {
  const { t } = useTranslation('subjects');
  return (
    <Modal
      name={ADD_UNSCHEDULED_VISIT_MODAL}
      title={t('unscheduled.addTitle')}
      description={t('unscheduled.addDescription', { subject: props.overview.subject.subjectId })}
      width="sm"
    >
      <AddForm {...props} />
    </Modal>
  );
}

function AddForm({ studyId, overview, visitLabel }: AddUnscheduledVisitProps) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const toast = useToast();
  const { add } = useUnscheduledVisitChange(studyId, overview.subject.id);
  const today = todayInKorea();
  const consentDate = overview.subject.consentDate;
  const [visitDate, setVisitDate] = useState('');
  const [reason, setReason] = useState('');
  const { errors, clearError, serverError, submit } = useCheckedForm<AddVisitField>({
    validate,
    send,
    fieldOf: (refusal) => (DATE_REFUSALS.has(refusal.code) ? 'visitDate' : null),
  });

  function validate() {
    const next: FieldErrors<AddVisitField> = {};
    const dateProblem = isCalendarDate(visitDate)
      ? unscheduledVisitDateProblem(visitDate, consentDate, today)
      : null;
    if (!isCalendarDate(visitDate)) next.visitDate = t('unscheduled.errors.visitDate');
    else if (dateProblem === 'unscheduled_visit_date_in_future')
      next.visitDate = t('unscheduled.errors.visitDateFuture', { today });
    else if (dateProblem === 'unscheduled_visit_before_consent')
      next.visitDate = t('unscheduled.errors.visitDateBeforeConsent', { consentDate });
    const text = reason.trim();
    if (!text) next.reason = t('unscheduled.errors.reason');
    else if (text.length > REASON_MAX) next.reason = t('unscheduled.errors.reasonLong', { max: REASON_MAX });
    return next;
  }

  async function send() {
    const visit = await add.mutateAsync({ visitDate, reason: reason.trim() });
    toast(t('unscheduled.added', { visit: visitLabel(visit) }), 'success');
    modals.close(ADD_UNSCHEDULED_VISIT_MODAL);
  }

  return (
    <form className={styles.modalBody} onSubmit={(event) => void submit(event)} noValidate>
      <DateTextField
        label={t('unscheduled.visitDate')}
        value={visitDate}
        error={errors.visitDate}
        onChange={(event) => {
          setVisitDate(formatDateText(event.target.value));
          clearError('visitDate');
        }}
      />
      <TextField
        label={t('unscheduled.reason')}
        value={reason}
        maxLength={REASON_MAX}
        autoComplete="off"
        error={errors.reason}
        hint={t('unscheduled.reasonHint')}
        onChange={(event) => {
          setReason(event.target.value);
          clearError('reason');
        }}
      />
      <FormAlert message={serverError} className={styles.formError} />
      <div className={styles.modalActions}>
        <Button variant="secondary" onClick={() => modals.close(ADD_UNSCHEDULED_VISIT_MODAL)}>
          {t('unscheduled.cancel')}
        </Button>
        <Button type="submit" disabled={add.isPending}>
          {t('unscheduled.submit')}
        </Button>
      </div>
    </form>
  );
}

/** Deletes an empty unscheduled visit with a reason (the shared reason dialog; the server's 409 shown in it). */
export function DeleteUnscheduledVisitDialog({
  studyId,
  subjectPk,
  visit,
  label,
}: {
  studyId: number;
  subjectPk: number;
  visit: UnscheduledVisit | null;
  label: string;
}) {
  const { t } = useTranslation('subjects');
  const toast = useToast();
  const { remove } = useUnscheduledVisitChange(studyId, subjectPk);
  return (
    <ReasonDialog
      name={DELETE_UNSCHEDULED_VISIT_MODAL}
      title={t('unscheduled.deleteTitle')}
      description={
        visit ? t('unscheduled.deleteDescription', { visit: label, date: visit.visitDate }) : undefined
      }
      reasonLabel={t('unscheduled.deleteReason')}
      confirmLabel={t('unscheduled.delete')}
      tone="danger"
      onSubmit={async (reason) => {
        if (!visit) return null;
        try {
          await remove.mutateAsync({ repeatKey: visit.repeatKey, reason });
          toast(t('unscheduled.deleted', { visit: label }), 'success');
          return null;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      }}
    />
  );
}
