import type { GuidelineAction, GuidelineDetail } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { AttachmentLinks } from '../../../components/attachment-links.tsx';
import { Button } from '../../../components/button.tsx';
import { DocumentContent, DocumentPage, useDocumentAction } from '../../../components/document-page.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useDeleteGuideline, useGuideline, useGuidelineCommand } from '../api/guidelines.ts';
import {
  GUIDELINE_PK_PARAM,
  guidelineDetailUrl,
  guidelineListUrl,
  guidelineRegisterUrl,
  MENU_TYPE_PARAM,
} from '../lib/guideline-urls.ts';
import { GuidelineStateBadge } from './guideline-list-page.tsx';
import styles from './guidelines.module.css';

/** `/guideline/detail/:studyId?guideline-pk=`: one guideline, its files, and the writer's actions. */
export function GuidelineDetailPage() {
  const studyId = readId(useParams().studyId);
  const [searchParams] = useSearchParams();
  const guidelineId = readId(searchParams.get(GUIDELINE_PK_PARAM));
  if (studyId === null || guidelineId === null) return <Navigate to={paths.notFound} replace />;
  return <GuidelineDetailView key={guidelineId} studyId={studyId} guidelineId={guidelineId} />;
}

function GuidelineDetailView({ studyId, guidelineId }: { studyId: number; guidelineId: number }) {
  const { t } = useTranslation('guidelines');
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const guideline = useGuideline(studyId, guidelineId);
  return (
    <DocumentPage
      title={t('title')}
      document={guideline}
      notFound={t('detail.notFound')}
      back={
        <div>
          <Link className={styles.linkButtonSecondary} to={guidelineListUrl(studyId, menuType)}>
            {t('detail.back')}
          </Link>
        </div>
      }
      classes={{
        page: listStyles.page,
        pageHeader: listStyles.pageHeader,
        pageTitle: listStyles.pageTitle,
        state: `${styles.card} ${styles.state}`,
      }}
    >
      {(data) => <GuidelineArticle guideline={data} studyId={studyId} menuType={menuType} />}
    </DocumentPage>
  );
}

function GuidelineArticle({
  guideline,
  studyId,
  menuType,
}: {
  guideline: GuidelineDetail;
  studyId: number;
  menuType: string | null;
}) {
  const { t } = useTranslation('guidelines');
  const alert = useAlert();
  const runAction = useDocumentAction();
  const navigate = useNavigate();
  const command = useGuidelineCommand();
  const deletion = useDeleteGuideline();
  const [revising, setRevising] = useState(false);
  const can = (action: GuidelineAction) => guideline.actions.includes(action);
  const [version, setVersion] = useState('');
  const versionId = useId();

  async function run(kind: 'publish' | 'retire') {
    await runAction(
      () => command.mutateAsync({ kind, studyId, guidelineId: guideline.id }),
      t(`detail.${kind}Done`),
      {
        title: t(`detail.${kind}Title`),
        message: t(`detail.${kind}Message`),
        confirmLabel: t(`detail.${kind}`),
      },
    );
  }

  async function discard() {
    const deleted = await runAction(
      () => deletion.mutateAsync({ studyId, guidelineId: guideline.id }),
      t('detail.deleteDone'),
      {
        title: t('detail.deleteTitle'),
        message: t('detail.deleteMessage'),
        confirmLabel: t('detail.delete'),
      },
    );
    if (deleted) navigate(guidelineListUrl(studyId, menuType));
  }

  async function revise(event: FormEvent) {
    event.preventDefault();
    if (!version.trim()) {
      await alert.alert({ message: t('form.versionRequired') });
      return;
    }
    const draft = await runAction(
      () =>
        command.mutateAsync({ kind: 'revise', studyId, guidelineId: guideline.id, version: version.trim() }),
      t('detail.reviseDone'),
    );
    if (draft) navigate(guidelineRegisterUrl(studyId, menuType, draft.value.id));
  }

  return (
    <article className={`${styles.card} ${styles.article}`} data-state={guideline.state}>
      <header className={styles.articleHeader}>
        <div className={styles.titleCell}>
          <GuidelineStateBadge state={guideline.state} />
          {guideline.alarming && <span className={`${styles.badge} ${styles.alarm}`}>{t('alarming')}</span>}
        </div>
        <h2 className={styles.articleTitle}>
          {guideline.title} <span className={styles.version}>v{guideline.version}</span>
        </h2>
        <dl className={styles.meta}>
          <div>
            <dt>{t('columns.guideType')}</dt>
            <dd>{t(`types.${guideline.guideType}`)}</dd>
          </div>
          <div>
            <dt>{t('form.effectiveDate')}</dt>
            <dd>{guideline.effectiveDate}</dd>
          </div>
          <div>
            <dt>{t('columns.alarmPeriod')}</dt>
            <dd>
              {guideline.alarmStart && guideline.alarmEnd
                ? `${guideline.alarmStart} ~ ${guideline.alarmEnd}`
                : t('detail.noAlarm')}
            </dd>
          </div>
          <div>
            <dt>{t('columns.writer')}</dt>
            <dd>{guideline.writer}</dd>
          </div>
          <div>
            <dt>{t('columns.enrollmentDate')}</dt>
            <dd>
              {formatDateTimeKst(guideline.createdAt)} ({t('kst')})
            </dd>
          </div>
          {guideline.publishedAt && (
            <div>
              <dt>{t('detail.publishedAt')}</dt>
              <dd>
                {formatDateTimeKst(guideline.publishedAt)} ({t('kst')})
              </dd>
            </div>
          )}
          {guideline.supersedesId !== null && (
            <div>
              <dt>{t('detail.supersedes')}</dt>
              <dd>
                <Link to={guidelineDetailUrl(studyId, guideline.supersedesId, menuType)}>
                  #{guideline.supersedesId}
                </Link>
              </dd>
            </div>
          )}
        </dl>
      </header>
      <DocumentContent html={guideline.contentHtml} className={styles.content} />
      <section aria-label={t('detail.attachments')} className={styles.attachments}>
        <h3 className={styles.attachmentsTitle}>{t('detail.attachments')}</h3>
        {guideline.attachments.length === 0 ? (
          <p className={styles.muted}>{t('detail.noAttachments')}</p>
        ) : (
          <AttachmentLinks
            studyId={studyId}
            attachments={guideline.attachments}
            className={styles.fileList}
            sizeClassName={styles.muted}
          />
        )}
      </section>
      {guideline.actions.length > 0 && (
        // The buttons are the server's list of what this reader may do now.
        <div className={styles.actions}>
          {can('edit') && (
            <Link
              className={styles.linkButtonSecondary}
              to={guidelineRegisterUrl(studyId, menuType, guideline.id)}
            >
              {t('detail.edit')}
            </Link>
          )}
          {can('publish') && (
            <Button disabled={command.isPending} onClick={() => void run('publish')}>
              {t('detail.publish')}
            </Button>
          )}
          {can('delete') && (
            <Button variant="danger" disabled={deletion.isPending} onClick={() => void discard()}>
              {t('detail.delete')}
            </Button>
          )}
          {can('revise') && !revising && (
            <Button variant="secondary" disabled={command.isPending} onClick={() => setRevising(true)}>
              {t('detail.revise')}
            </Button>
          )}
          {can('retire') && !revising && (
            <Button variant="danger" disabled={command.isPending} onClick={() => void run('retire')}>
              {t('detail.retire')}
            </Button>
          )}
          {revising && (
            <form className={styles.reviseForm} onSubmit={revise}>
              <label htmlFor={versionId}>{t('detail.newVersion')}</label>
              <input
                id={versionId}
                className={styles.input}
                value={version}
                maxLength={20}
                placeholder={t('form.versionPlaceholder')}
                onChange={(event) => setVersion(event.target.value)}
              />
              <Button type="submit" disabled={command.isPending}>
                {t('detail.reviseSubmit')}
              </Button>
              <Button variant="secondary" onClick={() => setRevising(false)}>
                {t('form.cancel')}
              </Button>
            </form>
          )}
        </div>
      )}
      {guideline.canEdit && <p className={styles.muted}>{t(`detail.rule_${guideline.state}`)}</p>}
      {guideline.openDraftId !== null && (
        <p className={styles.muted}>
          {t('detail.draftInProgress')}{' '}
          <Link to={guidelineDetailUrl(studyId, guideline.openDraftId, menuType)}>
            {t('detail.openDraft')}
          </Link>
        </p>
      )}
    </article>
  );
}
