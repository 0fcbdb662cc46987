import { type AuditEntry, REASON_MAX } from '@cdms/contract';
import {
  getFormLayout,
  getItemCodes,
  type ItemDefinition,
  type Language,
  resolveVisit,
  type StudyDefinition,
} from '@cdms/study';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { useDeleteSubject, useSubjectHistory } from '../api/subjects.ts';
import { auditPerson } from '../lib/audit-person.ts';
import styles from './subject-list.module.css';

export const SUBJECT_HISTORY_MODAL = 'subject-list-history';
export const SUBJECT_DELETE_MODAL = 'subject-list-delete';

/** The subject a row menu acted on. */
export interface ListedSubject {
  pk: number;
  subjectId: string;
}

interface EntryContext {
  definition: StudyDefinition | undefined;
  language: Language;
  rows: (count: number) => string;
  status: (status: string) => string;
}

/** The item an audit entry names (for its label and its codes), if the definition has it. */
function itemOf(entry: AuditEntry, definition: StudyDefinition | undefined): ItemDefinition | undefined {
  if (!definition || !entry.visitKey || !entry.formKey || !entry.itemPath) return undefined;
  const itemKey = entry.itemPath.split('.')[0] ?? '';
  return getFormLayout(definition, entry.visitKey, entry.formKey)?.items.get(itemKey)?.item;
}

/**
 * An audit value as one line of text: an item's value by its code label, rows counted, a status by
 * its name, other objects as key: value.
 */
function describeValue(entry: AuditEntry, value: unknown, context: EntryContext): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return context.rows(value.length);
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('value' in record) return describeValue(entry, record.value, context);
    // A status change ({ status, cause }) reads as the status' name.
    const keys = Object.keys(record);
    if (typeof record.status === 'string' && keys.every((key) => key === 'status' || key === 'cause'))
      return context.status(record.status);
    return Object.entries(record)
      .filter(([, child]) => child !== null && typeof child !== 'object')
      .map(([key, child]) => `${key}: ${String(child)}`)
      .join(', ');
  }
  const item = itemOf(entry, context.definition);
  const code =
    item && context.definition
      ? getItemCodes(context.definition, item).find((c) => c.code === String(value))
      : undefined;
  return code ? code.label[context.language] : String(value);
}

/** "Screening (V1) · Demographics · Sex" from the keys an audit entry names, in the user's language. */
function targetOf(entry: AuditEntry, definition: StudyDefinition | undefined, language: Language): string {
  if (!entry.visitKey) return '';
  const visit = definition ? resolveVisit(definition, entry.visitKey) : undefined;
  const layout =
    entry.formKey && definition ? getFormLayout(definition, entry.visitKey, entry.formKey) : undefined;
  const item = itemOf(entry, definition);
  // A repeating group (adverse events, drugs) is named by its section.
  const group = entry.itemPath ? layout?.groups.get(entry.itemPath.split('.')[0] ?? '') : undefined;
  return [
    visit?.label[language] ?? entry.visitKey,
    layout?.form.label[language] ?? entry.formKey,
    item?.label[language] ?? group?.label[language] ?? entry.itemPath,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The row menu's edit history: the subject's whole audit trail, newest first, times in UTC+9. */
export function SubjectHistoryModal({
  studyId,
  subject,
}: {
  studyId: number;
  subject: ListedSubject | null;
}) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const modals = useModalStack();
  const history = useSubjectHistory(studyId, subject?.pk ?? null);
  const definition = useStudyDefinition(studyId);
  const context: EntryContext = {
    definition: definition.data?.definition,
    language,
    rows: (count) => t('detail.rows', { count }),
    status: (status) => t(`status.${status}`, { defaultValue: status }),
  };
  return (
    <Modal
      name={SUBJECT_HISTORY_MODAL}
      title={t('listHistory.title', { subject: subject?.subjectId ?? '' })}
      description={t('listHistory.description')}
      width="lg"
    >
      {history.isPending ? (
        <p className={styles.modalState}>{t('loading')}</p>
      ) : history.isError ? (
        <p className={styles.modalError} role="alert">
          {history.error.message || t('loadError')}
        </p>
      ) : history.data.length === 0 ? (
        <p className={styles.modalState}>{t('listHistory.empty')}</p>
      ) : (
        <div className={styles.modalScroll}>
          <table className={styles.modalTable}>
            <thead>
              <tr>
                <th scope="col">{t('listHistory.time')}</th>
                <th scope="col">{t('listHistory.user')}</th>
                <th scope="col">{t('listHistory.event')}</th>
                <th scope="col">{t('listHistory.target')}</th>
                <th scope="col">{t('listHistory.change')}</th>
                <th scope="col">{t('listHistory.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((entry) => {
                const before = describeValue(entry, entry.before, context);
                const after = describeValue(entry, entry.after, context);
                return (
                  <tr key={entry.id} data-type={entry.type}>
                    <td className={styles.nowrap}>{formatDateTimeKst(entry.occurredAt)}</td>
                    <td>{auditPerson(entry, t('listHistory.system'))}</td>
                    <td className={styles.nowrap}>
                      {t(`listHistory.types.${entry.type.replace('.', '_')}`, { defaultValue: entry.type })}
                    </td>
                    <td>{targetOf(entry, definition.data?.definition, language)}</td>
                    <td className={styles.change}>
                      {before || after ? (
                        <>
                          {before ? <span className={styles.oldValue}>{before}</span> : null}
                          {before ? <span aria-hidden="true"> → </span> : null}
                          <span>{after}</span>
                        </>
                      ) : null}
                    </td>
                    <td className={styles.historyReason}>{entry.reason ?? ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className={styles.modalActions}>
        <Button variant="secondary" onClick={() => modals.close(SUBJECT_HISTORY_MODAL)}>
          {t('listHistory.close')}
        </Button>
      </div>
    </Modal>
  );
}

/**
 * Deleting a subject registered in error, with a reason (≤ 500). The server decides whether the
 * subject has data; its refusal is shown here as it says it.
 */
export function DeleteSubjectModal({ studyId, subject }: { studyId: number; subject: ListedSubject | null }) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const toast = useToast();
  const remove = useDeleteSubject(studyId);
  const id = useId();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const missing = !reason.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    setServerError(null);
    if (missing || !subject) return;
    try {
      await remove.mutateAsync({ subjectPk: subject.pk, request: { reason: reason.trim() } });
      modals.close(SUBJECT_DELETE_MODAL);
      toast(t('deleteSubject.deleted', { subject: subject.subjectId }), 'success');
    } catch (error) {
      setServerError(error instanceof ApiError || error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Modal
      name={SUBJECT_DELETE_MODAL}
      title={t('deleteSubject.title')}
      description={t('deleteSubject.description')}
      width="md"
    >
      <form className={styles.modalForm} onSubmit={(event) => void submit(event)} noValidate>
        <dl className={styles.modalFacts}>
          <dt>{t('deleteSubject.subject')}</dt>
          <dd>{subject?.subjectId}</dd>
        </dl>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-reason`}>
            {t('deleteSubject.reason')}
          </label>
          <textarea
            id={`${id}-reason`}
            className={styles.textarea}
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            aria-invalid={tried && missing ? true : undefined}
            aria-describedby={`${id}-counter${tried && missing ? ` ${id}-error` : ''}`}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className={styles.fieldFoot}>
            {tried && missing ? (
              <span id={`${id}-error`} className={styles.fieldError}>
                {t('deleteSubject.reasonRequired')}
              </span>
            ) : (
              <span />
            )}
            <span id={`${id}-counter`} className={styles.counter}>
              {t('deleteSubject.counter', { count: reason.length, max: REASON_MAX })}
            </span>
          </div>
        </div>
        <FormAlert message={serverError} className={styles.modalError} />
        <div className={styles.modalActions}>
          <Button variant="secondary" onClick={() => modals.close(SUBJECT_DELETE_MODAL)}>
            {t('deleteSubject.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={remove.isPending}>
            {t('deleteSubject.confirm')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
