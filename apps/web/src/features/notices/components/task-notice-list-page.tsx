import {
  ATTACHMENT_ACCEPT,
  type Attachment,
  attachmentDownloadPath,
  type Role,
  roles,
  TASK_NOTICE_CONTENT_MAX,
  TASK_NOTICE_TITLE_MAX,
  type TaskNotice,
  type TaskNoticeType,
  taskNoticeTypes,
  todayInKorea,
} from '@cdms/contract';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { DateRangeFields } from '../../../components/date-field.tsx';
import { DateRangeText, DateTimeText } from '../../../components/date-time-text.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { uploadAttachment } from '../../../lib/upload-attachment.ts';
import { useCreateTaskNotice, useTaskNotices } from '../api/task-notices.ts';
import { NoticeTabs } from './notice-tabs.tsx';
import styles from './notices.module.css';
import taskStyles from './task-notices.module.css';

const PAGE_SIZE = 10;
const REGISTER_MODAL = 'task-notice-register';

/** `/notice/tasks/:studyId`: the task-notice list (prototype-spec §2 "Task-notice list"). */
export function TaskNoticeListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <TaskNoticeList studyId={studyId} />;
}

function TaskNoticeList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const [searchParams] = useSearchParams();
  const page = parsePageParam(searchParams.get(PAGE_PARAM));
  const list = useTaskNotices(studyId, page, PAGE_SIZE);
  const modals = useModalStack();
  const headingId = useId();
  const data = list.data;
  const yesNo = (value: boolean) => (value ? 'O' : '—');

  const columns: DataTableColumn<TaskNotice>[] = [
    { id: 'no', header: t('tasks.columns.no'), className: styles.colNo, cell: (n) => n.no },
    {
      id: 'alarmType',
      header: t('tasks.columns.alarmType'),
      wrap: true,
      cell: (n) => t(`tasks.types.${n.alarmType}`),
    },
    { id: 'writer', header: t('tasks.columns.writer'), wrap: true, cell: (n) => n.writer },
    // Dates may break onto a second line (date / time, start ~ / end) so the table fits 1000 px.
    {
      id: 'createdAt',
      header: t('tasks.columns.createdAt'),
      wrap: true,
      cell: (n) => <DateTimeText value={n.createdAt} />,
    },
    {
      id: 'period',
      header: t('tasks.columns.period'),
      wrap: true,
      cell: (n) => <DateRangeText start={n.periodStart} end={n.periodEnd} />,
    },
    {
      id: 'title',
      header: t('tasks.columns.title'),
      hideable: false,
      wrap: true,
      cell: (n) => (
        <span title={n.content}>
          <strong>{n.title}</strong>
          <span className={taskStyles.audience}>
            {[
              ...n.roles,
              ...(n.siteIds.length ? [t('tasks.siteCount', { count: n.siteIds.length })] : []),
            ].join(', ')}
          </span>
        </span>
      ),
    },
    {
      id: 'attachment',
      header: t('tasks.columns.attachment'),
      wrap: true,
      cell: (n) =>
        n.attachment ? (
          <a href={attachmentDownloadPath(studyId, n.attachment.id)} download={n.attachment.fileName}>
            {n.attachment.fileName}
          </a>
        ) : (
          '—'
        ),
    },
    {
      id: 'email',
      header: t('tasks.columns.email'),
      className: taskStyles.center,
      cell: (n) => yesNo(n.email),
    },
    { id: 'sms', header: t('tasks.columns.sms'), className: taskStyles.center, cell: (n) => yesNo(n.sms) },
    {
      id: 'state',
      header: t('tasks.columns.state'),
      cell: (n) => (
        <>
          <span className={`${taskStyles.badge} ${taskStyles[`state_${n.state}`]}`}>
            {t(`tasks.states.${n.state}`)}
          </span>
          {n.messages !== null && n.delivered !== null ? (
            <span className={taskStyles.audience}>
              {t('tasks.delivered', { delivered: n.delivered, messages: n.messages })}
            </span>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.pageHeader}>
        <h1 id={headingId} className={styles.pageTitle}>
          {t('tasks.title')}
        </h1>
        {data?.canWrite && <Button onClick={() => modals.open(REGISTER_MODAL)}>{t('tasks.register')}</Button>}
      </div>
      <NoticeTabs studyId={studyId} />
      <PagedListTable<TaskNotice>
        id="task-notice-list"
        label={t('tasks.caption')}
        columns={columns}
        rows={data?.taskNotices}
        rowKey={(n) => String(n.id)}
        query={list}
        loadFailed={t('tasks.loadFailed')}
        fit
        rowAttributes={(n) => ({ 'data-task-notice-id': String(n.id), 'data-state': n.state })}
        emptyMessage={t('tasks.noData')}
        count={(total) => t('list.total', { total })}
        pageSize={PAGE_SIZE}
      />
      <Modal name={REGISTER_MODAL} title={t('tasks.register')} width="lg">
        <TaskNoticeForm studyId={studyId} onDone={() => modals.close(REGISTER_MODAL)} />
      </Modal>
    </section>
  );
}

function TaskNoticeForm({ studyId, onDone }: { studyId: number; onDone: () => void }) {
  const { t } = useTranslation('notices');
  const alert = useAlert();
  const toast = useToast();
  const me = useMe();
  const create = useCreateTaskNotice(studyId);
  const sites = me.data?.memberships.find((m) => m.studyId === studyId)?.sites ?? [];
  const [alarmType, setAlarmType] = useState<TaskNoticeType>('general');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [chosenRoles, setChosenRoles] = useState<Role[]>([]);
  const [siteIds, setSiteIds] = useState<number[]>([]);
  const [periodStart, setPeriodStart] = useState(todayInKorea());
  const [periodEnd, setPeriodEnd] = useState(todayInKorea());
  const [email, setEmail] = useState(true);
  const [sms, setSms] = useState(false);
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  function toggle<T>(list: T[], value: T): T[] {
    return list.includes(value) ? list.filter((other) => other !== value) : [...list, value];
  }

  async function pickFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    try {
      setAttachment(await uploadAttachment(studyId, file));
    } catch (error) {
      await alert.alert({
        message: error instanceof ApiError ? error.message : t('tasks.form.tooLarge'),
      });
    } finally {
      setUploading(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = !title.trim()
      ? 'tasks.form.titleRequired'
      : !content.trim()
        ? 'tasks.form.contentRequired'
        : chosenRoles.length === 0 && siteIds.length === 0
          ? 'tasks.form.audienceRequired'
          : !email && !sms
            ? 'tasks.form.channelRequired'
            : !periodStart || !periodEnd || periodStart > periodEnd
              ? 'tasks.form.periodInvalid'
              : null;
    if (problem) {
      await alert.alert({ message: t(problem) });
      return;
    }
    try {
      const saved = await create.mutateAsync({
        alarmType,
        title: title.trim(),
        content: content.trim(),
        roles: chosenRoles,
        siteIds,
        periodStart,
        periodEnd,
        email,
        sms,
        attachmentId: attachment?.id ?? null,
      });
      toast(t(saved.state === 'scheduled' ? 'tasks.form.scheduled' : 'tasks.form.sent'), 'success');
      onDone();
    } catch (error) {
      await alert.alert({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <form className={taskStyles.form} onSubmit={submit} noValidate>
      <label className={taskStyles.field}>
        <span>{t('tasks.columns.alarmType')}</span>
        <select
          className={styles.input}
          value={alarmType}
          onChange={(event) => setAlarmType(event.target.value as TaskNoticeType)}
        >
          {taskNoticeTypes.map((type) => (
            <option key={type} value={type}>
              {t(`tasks.types.${type}`)}
            </option>
          ))}
        </select>
      </label>
      <label className={taskStyles.field}>
        <span>{t('tasks.columns.title')}</span>
        <input
          className={styles.input}
          value={title}
          maxLength={TASK_NOTICE_TITLE_MAX}
          onChange={(event) => setTitle(event.target.value)}
        />
      </label>
      <label className={taskStyles.field}>
        <span>{t('tasks.form.content')}</span>
        <textarea
          className={taskStyles.textarea}
          value={content}
          rows={4}
          maxLength={TASK_NOTICE_CONTENT_MAX}
          onChange={(event) => setContent(event.target.value)}
        />
      </label>
      <fieldset className={taskStyles.fieldset}>
        <legend>{t('tasks.form.roles')}</legend>
        {roles.map((role) => (
          <label key={role} className={taskStyles.check}>
            <input
              type="checkbox"
              checked={chosenRoles.includes(role)}
              onChange={() => setChosenRoles((current) => toggle(current, role))}
            />
            {role}
          </label>
        ))}
      </fieldset>
      <fieldset className={taskStyles.fieldset}>
        <legend>{t('tasks.form.sites')}</legend>
        {sites.map((site) => (
          <label key={site.id} className={taskStyles.check}>
            <input
              type="checkbox"
              checked={siteIds.includes(site.id)}
              onChange={() => setSiteIds((current) => toggle(current, site.id))}
            />
            {site.institutionNumber} {site.name}
          </label>
        ))}
      </fieldset>
      <p className={taskStyles.hint}>{t('tasks.form.audienceHint')}</p>
      <div className={taskStyles.field}>
        <span id={`${id}-period`}>{t('tasks.columns.period')}</span>
        <div className={taskStyles.inline}>
          <DateRangeFields
            inputClassName={styles.input}
            startLabel={t('tasks.form.start')}
            endLabel={t('tasks.form.end')}
            start={periodStart}
            end={periodEnd}
            onStartChange={setPeriodStart}
            onEndChange={setPeriodEnd}
          />
        </div>
      </div>
      <fieldset className={taskStyles.fieldset}>
        <legend>{t('tasks.form.channels')}</legend>
        <label className={taskStyles.check}>
          <input type="checkbox" checked={email} onChange={() => setEmail((value) => !value)} />
          {t('tasks.columns.email')}
        </label>
        <label className={taskStyles.check}>
          <input type="checkbox" checked={sms} onChange={() => setSms((value) => !value)} />
          {t('tasks.columns.sms')}
        </label>
      </fieldset>
      <div className={taskStyles.field}>
        <label htmlFor={`${id}-file`}>{t('tasks.columns.attachment')}</label>
        {/* The browser's own file button speaks the browser's language; ours speaks the page's. */}
        <input
          ref={fileInputRef}
          id={`${id}-file`}
          className={taskStyles.visuallyHidden}
          type="file"
          accept={ATTACHMENT_ACCEPT}
          disabled={uploading}
          onChange={(event) => void pickFile(event)}
        />
        <div className={taskStyles.inline}>
          <Button
            variant="secondary"
            size="sm"
            disabled={uploading}
            onClick={() => fileInputRef.current?.click()}
          >
            {t('tasks.form.chooseFile')}
          </Button>
          <span className={taskStyles.hint}>{attachment ? attachment.fileName : t('tasks.form.noFile')}</span>
        </div>
      </div>
      <p className={taskStyles.hint}>{t('tasks.form.sendHint')}</p>
      <div className={taskStyles.actions}>
        <Button variant="secondary" onClick={onDone}>
          {t('register.cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending || uploading}>
          {t('tasks.form.submit')}
        </Button>
      </div>
    </form>
  );
}
