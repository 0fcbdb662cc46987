import {
  type QueryAssignee,
  type QueryDetail,
  type QueryMessage,
  type QueryStateValue,
  queryAssignees,
} from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';
import { formatDateTimeKst } from '../lib/date-time.ts';
import {
  type QueryActionInput,
  useCreateQuery,
  useQueryAction,
  useQueryDetail,
} from '../lib/query-thread-api.ts';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';
import { QueryMessageField } from './query-message-field.tsx';
import styles from './query-thread-panel.module.css';
import { QueryStateBadge } from './status-badge.tsx';
import { useToast } from './toast.tsx';

/** The panel's name in the modal stack: `useModalStack().open(QUERY_THREAD_MODAL)` shows it. */
export const QUERY_THREAD_MODAL = 'query-thread';

/** A query as the panel lists it before its thread is loaded. */
export interface QueryThreadSummary {
  id: number;
  state: QueryStateValue;
  /** The text it was raised with, in the reader's language. */
  text: string;
  openedAt: string;
}

/** Where a new query goes: an item of a form (its server path), or the whole form (''). */
export interface QueryRaiseTarget {
  subjectPk: number;
  visitKey: string;
  formKey: string;
  itemPath: string;
}

export type ProposedValue = string | number | boolean | null;

/**
 * The form page's part in an answer with a corrected value: the correction is saved by the form's own
 * save (with its reason for change), then the answer names the saved value.
 */
export interface AnswerCorrection {
  /** The item's unsaved change in the form, as text; null while it is unchanged. */
  pending: { before: string; after: string } | null;
  /** Saves the form as its save button does; the item's saved value, or null when nothing was saved. */
  save: () => Promise<{ value: ProposedValue } | null>;
  /** Closes the panel and puts the cursor in the item, to change its value. */
  edit: () => void;
}

export interface QueryThreadPanelProps {
  studyId: number;
  /** What the queries are about (subject · visit · form · item), under the title. */
  context: string;
  queries: readonly QueryThreadSummary[];
  /** The query shown first (the list's row); otherwise the first unresolved one. */
  initialQueryId?: number | null | undefined;
  /** Given when the reader may raise a query here (FormDataResponse.abilities.openQuery). */
  raise?: QueryRaiseTarget | null | undefined;
  /** Given on the form page when the reader may change the form. */
  correction?: AnswerCorrection | null | undefined;
}

/**
 * The thread of a query beside the page (issue 14): the item's queries, each message with its author,
 * role, time (UTC+9), text and proposed value, and the actions the server allows this reader on this
 * query (`QueryDetail.abilities`) — answer (with a corrected value through the form's save), comment,
 * close, cancel, reopen — and raising a new query where `raise` is given. A side placement of the
 * shared `Modal`, so the form's reason dialog stacks above it.
 */
export function QueryThreadPanel(props: QueryThreadPanelProps) {
  const { t } = useTranslation('queries');
  return (
    <Modal name={QUERY_THREAD_MODAL} title={t('thread.title')} description={props.context} placement="side">
      <ThreadBody {...props} />
    </Modal>
  );
}

function firstShown(queries: readonly QueryThreadSummary[], initial: number | null | undefined) {
  if (initial != null && queries.some((query) => query.id === initial)) return initial;
  return (
    queries.find((query) => query.state === 'open' || query.state === 'answered')?.id ??
    queries[0]?.id ??
    initial ??
    null
  );
}

function ThreadBody({ studyId, queries, initialQueryId, raise, correction }: QueryThreadPanelProps) {
  const { t } = useTranslation('queries');
  // The panel's content mounts with each opening (Radix Dialog), so the choice starts fresh.
  const [selected, setSelected] = useState<number | null>(() => firstShown(queries, initialQueryId));
  const [raising, setRaising] = useState(selected === null);
  const showList = queries.length > 1 || (raise && queries.length > 0);
  return (
    <div className={styles.body}>
      {showList ? (
        <nav aria-label={t('thread.listLabel')}>
          <ul className={styles.queryList}>
            {queries.map((query) => (
              <li key={query.id}>
                <button
                  type="button"
                  className={styles.queryChoice}
                  aria-current={!raising && selected === query.id ? 'true' : undefined}
                  onClick={() => {
                    setSelected(query.id);
                    setRaising(false);
                  }}
                >
                  <QueryStateBadge state={query.state}>{t(`states.${query.state}`)}</QueryStateBadge>
                  <span className={styles.choiceNumber}>#{query.id}</span>
                  <span className={styles.choiceText}>{query.text}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {raise && !raising ? (
        <Button variant="secondary" size="sm" onClick={() => setRaising(true)}>
          + {t('raise.open')}
        </Button>
      ) : null}
      {raising && raise ? (
        <RaiseForm
          studyId={studyId}
          target={raise}
          onRaised={(id) => {
            setSelected(id);
            setRaising(false);
          }}
          onCancel={queries.length > 0 ? () => setRaising(false) : undefined}
        />
      ) : selected !== null ? (
        <Thread key={selected} studyId={studyId} queryId={selected} correction={correction} />
      ) : (
        <p className={styles.muted}>{t('thread.none')}</p>
      )}
    </div>
  );
}

function Thread({
  studyId,
  queryId,
  correction,
}: {
  studyId: number;
  queryId: number;
  correction: AnswerCorrection | null | undefined;
}) {
  const { t, i18n } = useTranslation('queries');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const detail = useQueryDetail(studyId, queryId);
  if (detail.isPending) return <p className={styles.muted}>{t('loading')}</p>;
  if (detail.isError) {
    return (
      <div className={styles.error} role="alert">
        <p>{detail.error.message}</p>
        <Button variant="secondary" size="sm" onClick={() => void detail.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  const query = detail.data;
  return (
    <section className={styles.thread} aria-labelledby={`query-${query.id}-heading`}>
      <div className={styles.threadHeader}>
        <h3 id={`query-${query.id}-heading`} className={styles.threadTitle}>
          {t('thread.heading', { number: query.id })}
        </h3>
        <QueryStateBadge state={query.state} reopened={query.reopened}>
          {t(`states.${query.state}`)}
          {query.reopened && query.state === 'open' ? ` · ${t('states.reopened')}` : ''}
        </QueryStateBadge>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>{t('fields.item')}</dt>
          <dd>{query.itemLabel[language]}</dd>
        </div>
        <div>
          <dt>{t('fields.kind')}</dt>
          <dd>{t(`kinds.${query.kind}`)}</dd>
        </div>
        <div>
          <dt>{t('fields.assignee')}</dt>
          <dd>{t(`assignees.${query.assignee}`)}</dd>
        </div>
        <div>
          <dt>{t('fields.opened')}</dt>
          <dd>{formatDateTimeKst(query.openedAt)}</dd>
        </div>
      </dl>
      <ol className={styles.messages} aria-label={t('thread.messages')}>
        {query.messages.map((message) => (
          <MessageEntry key={message.id} message={message} language={language} />
        ))}
      </ol>
      <ActionForm key={query.state} studyId={studyId} query={query} correction={correction} />
    </section>
  );
}

function MessageEntry({ message, language }: { message: QueryMessage; language: 'ko' | 'en' }) {
  const { t } = useTranslation('queries');
  const author = message.author ? `${message.author.name} (${message.author.role})` : t('thread.system');
  return (
    <li className={styles.message} data-kind={message.kind}>
      <div className={styles.messageHead}>
        <span className={styles.author}>{author}</span>
        <span className={styles.kind}>{t(`messageKinds.${message.kind}`)}</span>
        <time className={styles.time} dateTime={message.at}>
          {formatDateTimeKst(message.at)}
        </time>
      </div>
      <p className={styles.messageText}>{message.text[language]}</p>
      {/* A value change's text already says from what to what; its new value is no proposal. */}
      {message.proposedValue !== null && message.kind !== 'value_changed' ? (
        <p className={styles.proposed}>
          {t('thread.proposedValue')}: <strong>{String(message.proposedValue)}</strong>
        </p>
      ) : null}
    </li>
  );
}

type Action = QueryActionInput['action'];
/** The first allowed one is the form's main button: the site answers, the monitor closes. */
const ACTION_ORDER: readonly Action[] = ['answer', 'close', 'reopen', 'comment', 'cancel'];

/** Whether an action needs the message: every one but closing, which needs it only for a failing check. */
export function actionNeedsText(action: Action, query: Pick<QueryDetail, 'kind' | 'checkStillFails'>) {
  if (action !== 'close') return true;
  return query.kind === 'system' && query.checkStillFails;
}

/** One message box and the buttons of the actions `abilities` allow (none shown otherwise). */
function ActionForm({
  studyId,
  query,
  correction,
}: {
  studyId: number;
  query: QueryDetail;
  correction: AnswerCorrection | null | undefined;
}) {
  const { t } = useTranslation('queries');
  const toast = useToast();
  const id = useId();
  const mutation = useQueryAction(studyId, query.id);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const allowed = ACTION_ORDER.filter((action) => query.abilities[action]);
  if (allowed.length === 0) return null;
  const offerCorrection = query.abilities.answer && correction;

  async function run(action: Action) {
    const trimmed = text.trim();
    if (!trimmed && actionNeedsText(action, query)) {
      setProblem(action === 'close' ? t('actions.closeReasonRequired') : t('actions.textRequired'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      let input: QueryActionInput;
      if (action === 'answer') {
        let proposedValue: ProposedValue | undefined;
        if (correction?.pending) {
          // The correction first, through the form's own save with its reason for change.
          const saved = await correction.save();
          if (!saved) return;
          proposedValue = saved.value;
        }
        input = {
          action,
          body: proposedValue === undefined ? { text: trimmed } : { text: trimmed, proposedValue },
        };
      } else if (action === 'close') {
        input = { action, body: trimmed ? { text: trimmed } : {} };
      } else {
        input = { action, body: { text: trimmed } };
      }
      await mutation.mutateAsync(input);
      setText('');
      toast(t(`actions.done.${action}`), 'success');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'query_state_conflict')
        setProblem(t('actions.stateConflict'));
      else setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.actionForm}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        const first = allowed[0];
        if (first) void run(first);
      }}
    >
      {offerCorrection ? (
        correction.pending ? (
          <p className={styles.correction} role="note">
            {t('correction.pending', {
              before: correction.pending.before || '—',
              after: correction.pending.after || '—',
            })}
          </p>
        ) : (
          <div className={styles.correction}>
            <span>{t('correction.hint')}</span>
            <Button variant="secondary" size="sm" onClick={correction.edit}>
              {t('correction.edit')}
            </Button>
          </div>
        )
      ) : null}
      <QueryMessageField
        id={`${id}-text`}
        label={t('actions.message')}
        value={text}
        onChange={setText}
        problem={problem}
      />
      <div className={styles.actions}>
        {allowed.map((action) => (
          <Button
            key={action}
            type={action === allowed[0] ? 'submit' : 'button'}
            size="sm"
            variant={action === 'cancel' ? 'danger' : action === allowed[0] ? 'primary' : 'secondary'}
            disabled={busy}
            onClick={action === allowed[0] ? undefined : () => void run(action)}
          >
            {action === 'answer' && correction?.pending ? t('actions.saveAndAnswer') : t(`actions.${action}`)}
          </Button>
        ))}
      </div>
    </form>
  );
}

function RaiseForm({
  studyId,
  target,
  onRaised,
  onCancel,
}: {
  studyId: number;
  target: QueryRaiseTarget;
  onRaised: (queryId: number) => void;
  onCancel: (() => void) | undefined;
}) {
  const { t } = useTranslation('queries');
  const toast = useToast();
  const id = useId();
  const create = useCreateQuery(studyId);
  const [text, setText] = useState('');
  const [assignee, setAssignee] = useState<QueryAssignee>('site');
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) {
      setProblem(t('actions.textRequired'));
      return;
    }
    setProblem(null);
    try {
      const detail = await create.mutateAsync({ ...target, text: trimmed, assignee });
      toast(t('raise.done'), 'success');
      onRaised(detail.id);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form className={styles.actionForm} onSubmit={(event) => void submit(event)}>
      <h3 className={styles.threadTitle}>{t('raise.title')}</h3>
      <QueryMessageField
        id={`${id}-text`}
        label={t('raise.text')}
        value={text}
        onChange={setText}
        problem={problem}
        required
        rows={5}
      />
      <label className={styles.label} htmlFor={`${id}-assignee`}>
        {t('fields.assignee')}
      </label>
      <select
        id={`${id}-assignee`}
        className={styles.select}
        value={assignee}
        onChange={(event) => setAssignee(event.target.value as QueryAssignee)}
      >
        {queryAssignees.map((value) => (
          <option key={value} value={value}>
            {t(`assignees.${value}`)}
          </option>
        ))}
      </select>
      <div className={styles.actions}>
        {onCancel ? (
          <Button variant="secondary" size="sm" onClick={onCancel}>
            {t('raise.back')}
          </Button>
        ) : null}
        <Button type="submit" size="sm" disabled={create.isPending}>
          {t('raise.submit')}
        </Button>
      </div>
    </form>
  );
}
