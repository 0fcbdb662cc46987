import { type AuditEntry, COMMENT_MAX, type FormComment, REASON_MAX } from '@cdms/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { auditPerson } from '../lib/audit-person.ts';
import styles from './subject-detail.module.css';

export const REASON_MODAL = 'subject-reason';
export const CONFLICT_MODAL = 'subject-conflict';
export const RESET_MODAL = 'subject-reset';
export const HISTORY_MODAL = 'subject-history';
export const ITEM_HISTORY_MODAL = 'subject-item-history';
export const COMMENT_MODAL = 'subject-comment';
export const UNVERIFY_MODAL = 'subject-sdv-unverify';
export const FORM_HOLD_MODAL = 'subject-form-hold';

/** A value in a table: the previous one struck through, the new one emphasised, none as "(none)". */
function ValueText({ value, old = false }: { value: string; old?: boolean }) {
  const { t } = useTranslation('subjects');
  if (!value) return <span className={styles.noValue}>{t('reason.empty')}</span>;
  return <span className={old ? styles.oldValue : styles.newValue}>{value}</span>;
}

/**
 * Items side by side in a dialog (the reasons asked before a save, a conflict): a row an item, named
 * in its first cell, its two values, then `last` (the reason's field, who changed it).
 */
function ItemValuesTable<Row extends { itemKey: string; label: string }>({
  headers,
  rows,
  first,
  firstOld = false,
  second,
  last,
}: {
  /** The four column headers. */
  headers: readonly [string, string, string, string];
  rows: readonly Row[];
  first: (row: Row) => string;
  /** The first value is the one replaced (struck through). */
  firstOld?: boolean;
  second: (row: Row) => string;
  last: (row: Row) => ReactNode;
}) {
  return (
    <table className={styles.modalTable}>
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.itemKey} data-item={row.itemKey}>
            <th scope="row">{row.label}</th>
            <td>
              <ValueText value={first(row)} old={firstOld} />
            </td>
            <td>
              <ValueText value={second(row)} />
            </td>
            <td>{last(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface ReasonRow {
  itemKey: string;
  label: string;
  before: string;
  after: string;
}

/**
 * One reason per changed saved value (audit trail), asked before the save is sent. The reasons typed
 * live while the dialog is open (rows the server adds keep the others); closing it forgets them.
 */
interface ReasonModalProps {
  rows: readonly ReasonRow[];
  pending: boolean;
  onSubmit: (reasons: Record<string, string>) => void;
}

export function ReasonModal(props: ReasonModalProps) {
  const { t } = useTranslation('subjects');
  return (
    <Modal name={REASON_MODAL} title={t('reason.title')} description={t('reason.description')} width="lg">
      <ReasonForm {...props} />
    </Modal>
  );
}

function ReasonForm({ rows, pending, onSubmit }: ReasonModalProps) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const id = useId();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const missing = rows.filter((row) => !reasons[row.itemKey]?.trim());

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (missing.length > 0) return;
    onSubmit(Object.fromEntries(rows.map((row) => [row.itemKey, reasons[row.itemKey]?.trim() ?? ''])));
  }

  return (
    <form onSubmit={submit} noValidate className={styles.modalForm}>
      <ItemValuesTable
        headers={[t('reason.item'), t('reason.before'), t('reason.after'), t('reason.reason')]}
        rows={rows}
        first={(row) => row.before}
        firstOld
        second={(row) => row.after}
        last={(row) => {
          const invalid = tried && !reasons[row.itemKey]?.trim();
          return (
            <>
              <input
                className={styles.input}
                aria-label={t('reason.reasonFor', { item: row.label })}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? `${id}-${row.itemKey}` : undefined}
                maxLength={REASON_MAX}
                value={reasons[row.itemKey] ?? ''}
                onChange={(event) =>
                  setReasons((current) => ({ ...current, [row.itemKey]: event.target.value }))
                }
              />
              {invalid ? (
                <div id={`${id}-${row.itemKey}`} className={styles.fieldError}>
                  {t('reason.required')}
                </div>
              ) : null}
            </>
          );
        }}
      />
      <div className={styles.modalActions}>
        <Button variant="secondary" onClick={() => modals.close(REASON_MODAL)}>
          {t('reason.cancel')}
        </Button>
        <Button type="submit" disabled={pending}>
          {t('reason.submit')}
        </Button>
      </div>
    </form>
  );
}

export interface ConflictViewRow {
  itemKey: string;
  label: string;
  mine: string;
  theirs: string;
  changedBy: 'me' | 'other' | 'both';
}

/** 409: the user's values next to the server's current ones; re-apply on the new version or discard. */
export function ConflictModal({
  rows,
  myVersion,
  currentVersion,
  onReapply,
  onDiscard,
}: {
  rows: readonly ConflictViewRow[];
  myVersion: number;
  currentVersion: number;
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation('subjects');
  const byLabel = { me: t('conflict.byMe'), other: t('conflict.byOther'), both: t('conflict.both') };
  return (
    <Modal
      name={CONFLICT_MODAL}
      title={t('conflict.title')}
      description={t('conflict.description', { mine: myVersion, current: currentVersion })}
      width="lg"
    >
      {rows.length === 0 ? (
        <p>{t('conflict.noDifference')}</p>
      ) : (
        <ItemValuesTable
          headers={[t('conflict.item'), t('conflict.mine'), t('conflict.theirs'), t('conflict.changedBy')]}
          rows={rows}
          first={(row) => row.mine}
          second={(row) => row.theirs}
          last={(row) => byLabel[row.changedBy]}
        />
      )}
      <div className={styles.modalActions}>
        <Button variant="secondary" onClick={onDiscard}>
          {t('conflict.discard')}
        </Button>
        <Button onClick={onReapply}>{t('conflict.reapply')}</Button>
      </div>
    </Modal>
  );
}

/** Reset asks for a reason: clearing a form is audited like any change. */
export function ResetModal({ pending, onSubmit }: { pending: boolean; onSubmit: (reason: string) => void }) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const id = useId();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const invalid = tried && !reason.trim();
  return (
    <Modal name={RESET_MODAL} title={t('reset.title')} description={t('reset.message')} width="sm">
      <form
        className={styles.modalForm}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (reason.trim()) onSubmit(reason.trim());
        }}
      >
        <label htmlFor={id} className={styles.label}>
          {t('reset.reason')}
        </label>
        <input
          id={id}
          className={styles.input}
          maxLength={REASON_MAX}
          value={reason}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        {invalid ? (
          <div id={`${id}-error`} className={styles.fieldError}>
            {t('reset.required')}
          </div>
        ) : null}
        <div className={styles.modalActions}>
          <Button variant="secondary" onClick={() => modals.close(RESET_MODAL)}>
            {t('reset.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {t('reset.confirm')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export interface HistoryRow {
  entry: AuditEntry;
  what: string;
  before: string;
  after: string;
}

/**
 * An edit history from the audit trail, newest first: a form's (`HISTORY_MODAL`) or one item's
 * (`ITEM_HISTORY_MODAL`, without the item column). Each row: time in UTC+9, the person by name and
 * role, the item, old → new as the form shows them, the reason.
 */
export function HistoryModal({
  name,
  title,
  description,
  rows,
  showItem = true,
  loading,
  error,
  pdfWithAuditHref,
}: {
  name: string;
  title: string;
  description: string;
  rows: readonly HistoryRow[] | undefined;
  showItem?: boolean;
  loading: boolean;
  error: string | null;
  /** The subject's casebook PDF with every form's audit trail, offered beside the history. */
  pdfWithAuditHref?: string;
}) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  return (
    <Modal name={name} title={title} description={description} width="lg">
      {loading ? (
        <p>{t('loading')}</p>
      ) : error ? (
        <p role="alert">{error}</p>
      ) : !rows || rows.length === 0 ? (
        <p>{t('history.empty')}</p>
      ) : (
        <div className={styles.modalScroll}>
          <table className={styles.modalTable}>
            <thead>
              <tr>
                <th scope="col">{t('history.time')}</th>
                <th scope="col">{t('history.user')}</th>
                {showItem ? <th scope="col">{t('history.item')}</th> : null}
                <th scope="col">{t('history.change')}</th>
                <th scope="col">{t('history.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.entry.id} data-type={row.entry.type}>
                  <td className={styles.nowrap}>{formatDateTimeKst(row.entry.occurredAt)}</td>
                  <td>{auditPerson(row.entry, t('history.system'))}</td>
                  {showItem ? <td>{row.what}</td> : null}
                  <td>
                    {row.before || row.after ? (
                      <span className={styles.change}>
                        <ValueText value={row.before} old />
                        <span aria-hidden="true">→</span>
                        <ValueText value={row.after} />
                      </span>
                    ) : null}
                  </td>
                  <td>{row.entry.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={styles.modalActions}>
        {pdfWithAuditHref ? (
          <a className={buttonClassName({ variant: 'secondary' })} href={pdfWithAuditHref} download>
            {t('history.pdfWithAudit')}
          </a>
        ) : null}
        <Button variant="secondary" onClick={() => modals.close(name)}>
          {t('history.close')}
        </Button>
      </div>
    </Modal>
  );
}

/** A section's comments and a new one (≤ 3500 characters, counter n/3500, spec §5). */
export function CommentModal({
  sectionLabel,
  comments,
  canAdd,
  pending,
  onSubmit,
}: {
  sectionLabel: string;
  /** False while a freeze or lock holds the form: comments are data, the server refuses them. */
  canAdd: boolean;
  comments: readonly FormComment[];
  pending: boolean;
  onSubmit: (text: string) => Promise<boolean>;
}) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const id = useId();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const invalid = tried && !text.trim();
  return (
    <Modal name={COMMENT_MODAL} title={t('comments.title', { section: sectionLabel })} width="md">
      <h3 className={styles.modalSubtitle}>{t('comments.existing')}</h3>
      {comments.length === 0 ? (
        <p className={styles.muted}>{t('comments.empty')}</p>
      ) : (
        <ul className={styles.commentList}>
          {comments.map((comment) => (
            <li key={comment.id}>
              <div className={styles.commentMeta}>
                {comment.author} · {formatDateTimeKst(comment.createdAt)}
              </div>
              <p className={styles.commentText}>{comment.text}</p>
            </li>
          ))}
        </ul>
      )}
      {!canAdd ? (
        <p className={styles.muted} role="note">
          {t('comments.held')}
        </p>
      ) : null}
      <form
        className={styles.modalForm}
        hidden={!canAdd}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (!text.trim()) return;
          void onSubmit(text.trim()).then((added) => {
            if (added) {
              setText('');
              setTried(false);
            }
          });
        }}
      >
        <label htmlFor={id} className={styles.label}>
          {t('comments.text')}
        </label>
        <textarea
          id={id}
          className={styles.textarea}
          rows={5}
          maxLength={COMMENT_MAX}
          value={text}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-counter${invalid ? ` ${id}-error` : ''}`}
          onChange={(event) => setText(event.target.value)}
        />
        <div className={styles.counterLine}>
          {invalid ? (
            <span id={`${id}-error`} className={styles.fieldError}>
              {t('comments.required')}
            </span>
          ) : (
            <span />
          )}
          <span id={`${id}-counter`} className={styles.counter}>
            {t('comments.counter', { count: text.length, max: COMMENT_MAX })}
          </span>
        </div>
        <div className={styles.modalActions}>
          <Button variant="secondary" onClick={() => modals.close(COMMENT_MODAL)}>
            {t('comments.cancel')}
          </Button>
          <Button type="submit" disabled={pending}>
            {t('comments.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
