import { NOTICE_TITLE_MAX, type NoticeDetail } from '@cdms/contract';
import type { Editor } from '@tiptap/react';
import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import { NoticeEditor } from '../../../components/rich-text-editor.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useCreateNotice } from '../api/create-notice.ts';
import { useNotice } from '../api/get-notice.ts';
import { useNotices } from '../api/get-notices.ts';
import { useUpdateNotice } from '../api/update-notice.ts';
import { type NoticeFormError, validateNoticeForm } from '../lib/notice-form.ts';
import {
  MENU_TYPE_PARAM,
  NOTICE_PK_PARAM,
  noticeDetailUrl,
  noticeListUrl,
  noticeRegisterUrl,
} from '../lib/notice-urls.ts';
import formStyles from './notice-register-page.module.css';
import styles from './notices.module.css';

/**
 * `/notice/register/:studyId?` (and `?notice-pk=` to edit). Without a study id the user's first
 * study in which they may write notices is used, since a notice always belongs to a study (or, for
 * system administrators, to all of them).
 */
export function NoticeRegisterPage() {
  const { t } = useTranslation('notices');
  const rawStudyId = useParams().studyId;
  const [searchParams] = useSearchParams();
  const me = useMe();

  if (rawStudyId === undefined) {
    if (!me.data) return <p className={styles.state}>{t('loading', { ns: 'common' })}</p>;
    const study = me.data.memberships.find((membership) => membership.abilities.includes('notice.write'));
    if (!study) return <Message title={t('register.title')} text={t('register.noStudy')} />;
    return (
      <Navigate
        to={`${noticeRegisterUrl(study.studyId, null)}${searchParams.size ? `?${searchParams}` : ''}`}
        replace
      />
    );
  }
  const studyId = readId(rawStudyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  const noticeId = searchParams.has(NOTICE_PK_PARAM) ? readId(searchParams.get(NOTICE_PK_PARAM)) : undefined;
  if (noticeId === null) return <Navigate to={paths.notFound} replace />;
  return noticeId === undefined ? (
    <CreateNotice studyId={studyId} />
  ) : (
    <EditNotice studyId={studyId} noticeId={noticeId} />
  );
}

/** What stands in for the form (no right to write, no such notice), under the page's own title. */
function Message({ title, text }: { title: string; text: string }) {
  return (
    <section className={styles.page}>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{title}</h1>
      </div>
      <p className={`${styles.card} ${styles.state}`} role="alert">
        {text}
      </p>
    </section>
  );
}

function CreateNotice({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const me = useMe();
  // Whether this user may write here is the server's answer (`canWrite` of the notice list, the
  // same cached query the list page uses), not a rule repeated in the browser.
  const notices = useNotices(studyId);
  if (!me.data || !notices.data) return <p className={styles.state}>{t('loading', { ns: 'common' })}</p>;
  if (!notices.data.canWrite) return <Message title={t('register.title')} text={t('register.forbidden')} />;
  return <NoticeForm studyId={studyId} author={me.data.user.name} isSystemAdmin={me.data.user.isAdmin} />;
}

function EditNotice({ studyId, noticeId }: { studyId: number; noticeId: number }) {
  const { t } = useTranslation('notices');
  const notice = useNotice(studyId, noticeId);
  if (notice.error) {
    return (
      <Message
        title={t('register.editTitle')}
        text={
          notice.error instanceof ApiError && notice.error.kind === 'not_found'
            ? t('detail.notFound')
            : notice.error.message
        }
      />
    );
  }
  if (!notice.data) return <p className={styles.state}>{t('loading', { ns: 'common' })}</p>;
  if (!notice.data.canEdit) return <Message title={t('register.editTitle')} text={t('register.forbidden')} />;
  return (
    <NoticeForm
      key={notice.data.id}
      studyId={studyId}
      author={notice.data.writer}
      notice={notice.data}
      isSystemAdmin={false}
    />
  );
}

interface NoticeFormProps {
  studyId: number;
  author: string;
  /** The notice being edited; absent when registering a new one. */
  notice?: NoticeDetail;
  /** System administrators may publish to every study (create only: the scope cannot change later). */
  isSystemAdmin: boolean;
}

function NoticeForm({ studyId, author, notice, isSystemAdmin }: NoticeFormProps) {
  const { t } = useTranslation('notices');
  const alert = useAlert();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const createNotice = useCreateNotice();
  const updateNotice = useUpdateNotice();
  const [title, setTitle] = useState(notice?.title ?? '');
  const [pinned, setPinned] = useState(notice?.pinned ?? false);
  const [visible, setVisible] = useState(notice?.visible ?? true);
  const [scope, setScope] = useState<'study' | 'global'>('study');
  const editorRef = useRef<Editor | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const onEditor = useCallback((editor: Editor | null) => {
    editorRef.current = editor;
  }, []);
  const saving = createNotice.isPending || updateNotice.isPending;

  async function showProblem(problem: NoticeFormError) {
    await alert.alert({ name: 'notice-form-problem', message: t(problem, { max: NOTICE_TITLE_MAX }) });
    if (problem === 'form.contentRequired') editorRef.current?.commands.focus();
    else titleRef.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const editor = editorRef.current;
    if (!editor || saving) return; // still loading: nothing to read yet
    const contentHtml = editor.getHTML();
    const problem = validateNoticeForm({ title, contentHtml });
    if (problem) {
      await showProblem(problem);
      return;
    }
    try {
      const saved = notice
        ? await updateNotice.mutateAsync({
            studyId,
            noticeId: notice.id,
            title: title.trim(),
            contentHtml,
            pinned,
            visible,
          })
        : await createNotice.mutateAsync({
            studyId,
            title: title.trim(),
            contentHtml,
            pinned,
            visible,
            scope,
          });
      toast(t(notice ? 'register.updated' : 'register.created'), 'success');
      // Replace the form in the history: Back from the new notice goes to where the user came from.
      navigate(noticeDetailUrl(studyId, saved.id, menuType), { replace: true, state: location.state });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'content_required') {
        await showProblem('form.contentRequired');
        return;
      }
      await alert.alert({
        message: error instanceof Error ? error.message : t('apiErrors.unknown', { ns: 'common' }),
      });
    }
  }

  function cancel() {
    // Back where the user came from; a first page of the tab has nowhere to go back to.
    if (location.key !== 'default') navigate(-1);
    else navigate(notice ? noticeDetailUrl(studyId, notice.id, menuType) : noticeListUrl(studyId, menuType));
  }

  return (
    <section className={styles.page} aria-labelledby={`${id}-heading`}>
      <div className={styles.pageHeader}>
        <h1 id={`${id}-heading`} className={styles.pageTitle}>
          {t(notice ? 'register.editTitle' : 'register.title')}
        </h1>
      </div>
      <form className={`${styles.card} ${formStyles.form}`} onSubmit={submit} noValidate>
        <div className={formStyles.row}>
          <span className={formStyles.rowLabel}>{t('register.author')}</span>
          <span className={formStyles.author}>{author}</span>
        </div>
        <div className={formStyles.row}>
          <label className={formStyles.rowLabel} htmlFor={`${id}-title`}>
            {t('register.titleLabel')}
          </label>
          <input
            ref={titleRef}
            id={`${id}-title`}
            className={`${styles.input} ${formStyles.titleInput}`}
            value={title}
            maxLength={NOTICE_TITLE_MAX}
            placeholder={t('register.titlePlaceholder')}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className={`${formStyles.row} ${formStyles.rowTop}`}>
          <span className={formStyles.rowLabel} id={`${id}-content`}>
            {t('register.content')}
          </span>
          <div className={formStyles.editorCell}>
            <NoticeEditor
              initialHtml={notice?.contentHtml ?? ''}
              labelledBy={`${id}-content`}
              onEditor={onEditor}
            />
          </div>
        </div>
        <RadioRow
          label={t('register.pinned')}
          name={`${id}-pinned`}
          value={pinned ? 'yes' : 'no'}
          options={[
            { value: 'yes', label: t('register.pinnedYes') },
            { value: 'no', label: t('register.pinnedNo') },
          ]}
          onChange={(value) => setPinned(value === 'yes')}
        />
        <RadioRow
          label={t('register.visibility')}
          name={`${id}-visible`}
          value={visible ? 'shown' : 'hidden'}
          options={[
            { value: 'shown', label: t('register.shown') },
            { value: 'hidden', label: t('register.hidden') },
          ]}
          onChange={(value) => setVisible(value === 'shown')}
        />
        {isSystemAdmin && !notice && (
          <RadioRow
            label={t('register.scope')}
            name={`${id}-scope`}
            value={scope}
            options={[
              { value: 'study', label: t('register.scopeStudy') },
              { value: 'global', label: t('register.scopeGlobal') },
            ]}
            onChange={(value) => setScope(value === 'global' ? 'global' : 'study')}
          />
        )}
        <div className={formStyles.actions}>
          <Button variant="secondary" size="lg" onClick={cancel}>
            {t('register.cancel')}
          </Button>
          <Button type="submit" size="lg" disabled={saving}>
            {t(notice ? 'register.submitEdit' : 'register.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function RadioRow({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className={formStyles.row} role="radiogroup" aria-labelledby={`${name}-label`}>
      <span id={`${name}-label`} className={formStyles.rowLabel}>
        {label}
      </span>
      <div className={formStyles.radios}>
        {options.map((option) => (
          <label key={option.value} className={formStyles.radio}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </div>
  );
}
