import {
  type Attachment,
  GUIDELINE_TITLE_MAX,
  type GuidelineDetail,
  type GuidelineType,
  guidelineTypes,
  isBlankRichText,
  todayInKorea,
} from '@cdms/contract';
import type { Editor } from '@tiptap/react';
import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { AttachmentPicker } from '../../../components/attachment-picker.tsx';
import { Button } from '../../../components/button.tsx';
import { DateField, DateRangeFields } from '../../../components/date-field.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { NoticeEditor } from '../../../components/rich-text-editor.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useGuideline, useGuidelineCommand, useGuidelines } from '../api/guidelines.ts';
import { DEFAULT_GUIDELINE_FILTERS } from '../lib/guideline-filters.ts';
import {
  GUIDELINE_PK_PARAM,
  guidelineDetailUrl,
  guidelineListUrl,
  MENU_TYPE_PARAM,
} from '../lib/guideline-urls.ts';
import styles from './guidelines.module.css';

/** `/guideline/register/:studyId` (and `?guideline-pk=` to edit a draft). */
export function GuidelineRegisterPage() {
  const { t } = useTranslation('guidelines');
  const studyId = readId(useParams().studyId);
  const [searchParams] = useSearchParams();
  const rawId = searchParams.get(GUIDELINE_PK_PARAM);
  const guidelineId = rawId === null ? undefined : readId(rawId);
  if (studyId === null || guidelineId === null) return <Navigate to={paths.notFound} replace />;
  return guidelineId === undefined ? (
    <CreateGuideline studyId={studyId} />
  ) : (
    <EditGuideline studyId={studyId} guidelineId={guidelineId} title={t('form.editTitle')} />
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <section className={listStyles.page}>
      <div className={listStyles.pageHeader}>
        <h1 className={listStyles.pageTitle}>{title}</h1>
      </div>
      <p className={`${styles.card} ${styles.state}`} role="alert">
        {text}
      </p>
    </section>
  );
}

function CreateGuideline({ studyId }: { studyId: number }) {
  const { t } = useTranslation('guidelines');
  const me = useMe();
  // Whether this user may write is the server's answer (`canWrite` of the list).
  const list = useGuidelines(studyId, DEFAULT_GUIDELINE_FILTERS);
  if (!me.data || !list.data) return <p className={styles.state}>{t('loading', { ns: 'common' })}</p>;
  if (!list.data.canWrite) return <Message title={t('form.title')} text={t('form.forbidden')} />;
  return <GuidelineForm studyId={studyId} author={me.data.user.name} />;
}

function EditGuideline({
  studyId,
  guidelineId,
  title,
}: {
  studyId: number;
  guidelineId: number;
  title: string;
}) {
  const { t } = useTranslation('guidelines');
  const guideline = useGuideline(studyId, guidelineId);
  if (guideline.error) return <Message title={title} text={guideline.error.message} />;
  if (!guideline.data) return <p className={styles.state}>{t('loading', { ns: 'common' })}</p>;
  if (!guideline.data.canEdit) return <Message title={title} text={t('form.forbidden')} />;
  if (guideline.data.state !== 'draft') return <Message title={title} text={t('form.notDraft')} />;
  return (
    <GuidelineForm
      key={guideline.data.id}
      studyId={studyId}
      author={guideline.data.writer}
      guideline={guideline.data}
    />
  );
}

function GuidelineForm({
  studyId,
  author,
  guideline,
}: {
  studyId: number;
  author: string;
  guideline?: GuidelineDetail;
}) {
  const { t } = useTranslation('guidelines');
  const alert = useAlert();
  const toast = useToast();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const command = useGuidelineCommand();
  const [guideType, setGuideType] = useState<GuidelineType>(guideline?.guideType ?? 'protocol');
  const [title, setTitle] = useState(guideline?.title ?? '');
  const [version, setVersion] = useState(guideline?.version ?? '1.0');
  const [effectiveDate, setEffectiveDate] = useState(guideline?.effectiveDate ?? todayInKorea());
  const [alarmStart, setAlarmStart] = useState(guideline?.alarmStart ?? '');
  const [alarmEnd, setAlarmEnd] = useState(guideline?.alarmEnd ?? '');
  const [attachments, setAttachments] = useState<Attachment[]>(guideline?.attachments ?? []);
  const [uploading, setUploading] = useState(false);
  const editorRef = useRef<Editor | null>(null);
  const id = useId();
  const onEditor = useCallback((editor: Editor | null) => {
    editorRef.current = editor;
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const editor = editorRef.current;
    if (!editor || command.isPending || uploading) return;
    const contentHtml = editor.getHTML();
    const problem = !title.trim()
      ? 'form.titleRequired'
      : !version.trim()
        ? 'form.versionRequired'
        : !effectiveDate
          ? 'form.effectiveDateRequired'
          : Boolean(alarmStart) !== Boolean(alarmEnd) || (alarmStart && alarmEnd && alarmStart > alarmEnd)
            ? 'form.alarmPeriodInvalid'
            : isBlankRichText(contentHtml)
              ? 'form.contentRequired'
              : null;
    if (problem) {
      await alert.alert({ message: t(problem) });
      return;
    }
    const input = {
      guideType,
      title: title.trim(),
      contentHtml,
      version: version.trim(),
      effectiveDate,
      alarmStart: alarmStart || null,
      alarmEnd: alarmEnd || null,
      attachmentIds: attachments.map((file) => file.id),
    };
    try {
      const saved = guideline
        ? await command.mutateAsync({ kind: 'update', studyId, guidelineId: guideline.id, input })
        : await command.mutateAsync({ kind: 'create', studyId, input });
      toast(t(guideline ? 'form.updated' : 'form.created'), 'success');
      navigate(guidelineDetailUrl(studyId, saved.id, menuType), { replace: true });
    } catch (error) {
      await alert.alert({
        message:
          error instanceof ApiError || error instanceof Error
            ? error.message
            : t('apiErrors.unknown', { ns: 'common' }),
      });
    }
  }

  return (
    <section className={listStyles.page} aria-labelledby={`${id}-heading`}>
      <div className={listStyles.pageHeader}>
        <h1 id={`${id}-heading`} className={listStyles.pageTitle}>
          {t(guideline ? 'form.editTitle' : 'form.title')}
        </h1>
      </div>
      <form className={`${styles.card} ${styles.form}`} onSubmit={submit} noValidate>
        <div className={styles.row}>
          <span className={styles.rowLabel}>{t('columns.writer')}</span>
          <span>{author}</span>
        </div>
        <div className={styles.row}>
          <label className={styles.rowLabel} htmlFor={`${id}-type`}>
            {t('columns.guideType')}
          </label>
          <select
            id={`${id}-type`}
            className={styles.input}
            value={guideType}
            onChange={(event) => setGuideType(event.target.value as GuidelineType)}
          >
            {guidelineTypes.map((type) => (
              <option key={type} value={type}>
                {t(`types.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.row}>
          <label className={styles.rowLabel} htmlFor={`${id}-title`}>
            {t('columns.title')}
          </label>
          <input
            id={`${id}-title`}
            className={`${styles.input} ${styles.grow}`}
            value={title}
            maxLength={GUIDELINE_TITLE_MAX}
            placeholder={t('form.titlePlaceholder')}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className={styles.row}>
          <label className={styles.rowLabel} htmlFor={`${id}-version`}>
            {t('form.version')}
          </label>
          <input
            id={`${id}-version`}
            className={`${styles.input} ${styles.short}`}
            value={version}
            maxLength={20}
            placeholder={t('form.versionPlaceholder')}
            onChange={(event) => setVersion(event.target.value)}
          />
          <span className={styles.rowLabel}>{t('form.effectiveDate')}</span>
          <DateField
            inputClassName={styles.input}
            label={t('form.effectiveDate')}
            value={effectiveDate}
            onChange={setEffectiveDate}
          />
        </div>
        <div className={styles.row}>
          <span className={styles.rowLabel}>{t('columns.alarmPeriod')}</span>
          <DateRangeFields
            inputClassName={styles.input}
            startLabel={t('form.alarmStart')}
            endLabel={t('form.alarmEnd')}
            start={alarmStart}
            end={alarmEnd}
            onStartChange={setAlarmStart}
            onEndChange={setAlarmEnd}
          />
          <span className={styles.muted}>{t('form.alarmHint')}</span>
        </div>
        <div className={`${styles.row} ${styles.rowTop}`}>
          <span className={styles.rowLabel} id={`${id}-content`}>
            {t('form.content')}
          </span>
          <div className={styles.grow}>
            <NoticeEditor
              initialHtml={guideline?.contentHtml ?? ''}
              labelledBy={`${id}-content`}
              onEditor={onEditor}
            />
          </div>
        </div>
        <div className={`${styles.row} ${styles.rowTop}`}>
          <label className={styles.rowLabel} htmlFor={`${id}-files`}>
            {t('detail.attachments')}
          </label>
          <div className={styles.grow}>
            <AttachmentPicker
              studyId={studyId}
              inputId={`${id}-files`}
              attachments={attachments}
              onChange={setAttachments}
              onUploading={setUploading}
            />
          </div>
        </div>
        <p className={styles.muted}>{t('form.draftNote')}</p>
        <div className={styles.actions}>
          <Button
            variant="secondary"
            size="lg"
            onClick={() =>
              navigate(
                guideline
                  ? guidelineDetailUrl(studyId, guideline.id, menuType)
                  : guidelineListUrl(studyId, menuType),
              )
            }
          >
            {t('form.cancel')}
          </Button>
          <Button type="submit" size="lg" disabled={command.isPending || uploading}>
            {t('form.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
