import {
  SAE_SIGNATURE_MEANING,
  type SaeContent,
  type SaeCriterion,
  type SaeReport,
  type SaeVersion,
  saeCriteria,
} from '@cdms/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { ListPage, listStyles } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SignatureDialog } from '../../../components/signature-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useMe } from '../../../lib/me.ts';
import { paths, studyPath } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import {
  useAcknowledgeSaeReport,
  useChangeSaeAwareness,
  useSaeReport,
  useSaveSaeDraft,
  useStartSaeFollowUp,
  useSubmitSaeReport,
} from '../api/sae-api.ts';
import { SaeClock, useMinuteNow } from './sae-clock.tsx';
import styles from './safety.module.css';

const SUBMIT_MODAL = 'submit-sae-report';

/** A version's export; the PDF in the page's language (a link sends the browser's, not the page's). */
function exportPath(
  studyId: number,
  reportId: number,
  version: number,
  file: 'cioms.pdf' | 'e2b.xml',
  language: string,
): string {
  const lang = file === 'cioms.pdf' ? `&lang=${language === 'en' ? 'en' : 'ko'}` : '';
  return `/api/studies/${studyId}/sae-reports/${reportId}/${file}?version=${version}${lang}`;
}

/**
 * `/safety/:studyId/reports/:reportId` (issue 51 item 1): one SAE report — its clock, the awareness time
 * (the site corrects it with a reason), the version being written (criteria, narrative, history, suspect
 * drugs and device, outcome, reporter) or the one shown, the PI's submission with an electronic signature,
 * a follow-up, the safety desk's acknowledgement, and the versions' history.
 */
export function SaeReportPage() {
  const params = useParams();
  const studyId = readId(params.studyId);
  const reportId = readId(params.reportId);
  if (studyId === null || reportId === null) return <Navigate to={paths.notFound} replace />;
  return <SaeReportView studyId={studyId} reportId={reportId} />;
}

function SaeReportView({ studyId, reportId }: { studyId: number; reportId: number }) {
  const { t } = useTranslation('safety');
  const query = useSaeReport(studyId, reportId);
  const report = query.data;
  const back = (
    <Link to={studyPath(paths.safety, studyId)} className={styles.link}>
      {t('report.back')}
    </Link>
  );
  return (
    <ListPage
      title={
        report
          ? t('report.title', { subject: report.screeningNumber, number: report.eventNumber })
          : t('title')
      }
      headerActions={back}
    >
      {query.error && !report ? (
        <div className={`${listStyles.card} ${listStyles.stateError} ${listStyles.state}`} role="alert">
          <span>{t('loadFailed')}</span>
          <span>{query.error.message}</span>
        </div>
      ) : !report ? (
        <p className={`${listStyles.card} ${listStyles.state}`} role="status">
          {t('loading')}
        </p>
      ) : (
        <Report studyId={studyId} report={report} />
      )}
    </ListPage>
  );
}

function Report({ studyId, report }: { studyId: number; report: SaeReport }) {
  const { t, i18n } = useTranslation('safety');
  const now = useMinuteNow();
  const current = report.versions.find((v) => v.version === report.currentVersion);
  const [shown, setShown] = useState(report.currentVersion);
  useEffect(() => setShown(report.currentVersion), [report.currentVersion]);
  const version = report.versions.find((v) => v.version === shown) ?? current;
  const editing = report.canEdit && version?.version === report.currentVersion;

  return (
    <div className={styles.report}>
      <section className={`${listStyles.card} ${styles.summary}`} aria-label={t('report.summary')}>
        <dl className={styles.facts}>
          <div>
            <dt>{t('list.term')}</dt>
            <dd>{report.term || '—'}</dd>
          </div>
          <div>
            <dt>{t('list.site')}</dt>
            <dd>{report.site}</dd>
          </div>
          <div>
            <dt>{t('list.status')}</dt>
            <dd>
              <span className={styles.status} data-status={report.status}>
                {t(`status.${report.status}`)}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t('list.clock')}</dt>
            <dd>
              <SaeClock dueAt={report.dueAt} firstSubmittedAt={report.firstSubmittedAt} now={now} />
            </dd>
          </div>
          <div>
            <dt>{t('list.awareness')}</dt>
            <dd>{formatDateTimeKst(report.awarenessAt)} KST</dd>
          </div>
        </dl>
        {report.canEdit && report.firstSubmittedAt === null ? (
          <Awareness studyId={studyId} report={report} />
        ) : null}
      </section>

      <div className={styles.columns}>
        <section className={`${listStyles.card} ${styles.content}`} aria-labelledby="sae-version-heading">
          <h2 id="sae-version-heading" className={styles.sectionTitle}>
            {version ? versionName(t, version) : ''}
            {version && version.submittedAt === null ? ` · ${t('status.draft')}` : ''}
          </h2>
          {version ? (
            editing ? (
              <DraftForm
                key={`${version.version}-${report.rowVersion}`}
                studyId={studyId}
                report={report}
                version={version}
              />
            ) : (
              <ContentView content={version.content} />
            )
          ) : null}
          <Actions studyId={studyId} report={report} />
          {version ? (
            <p className={styles.exports}>
              <a href={exportPath(studyId, report.id, version.version, 'cioms.pdf', i18n.language)} download>
                {t('report.ciomsPdf')}
              </a>
              <a href={exportPath(studyId, report.id, version.version, 'e2b.xml', i18n.language)} download>
                {t('report.e2bXml')}
              </a>
            </p>
          ) : null}
        </section>
        <section className={`${listStyles.card} ${styles.history}`} aria-labelledby="sae-history-heading">
          <h2 id="sae-history-heading" className={styles.sectionTitle}>
            {t('history.title')}
          </h2>
          <ol className={styles.versions}>
            {[...report.versions].reverse().map((v) => (
              <li key={v.version} data-current={v.version === shown || undefined}>
                <button type="button" className={styles.versionButton} onClick={() => setShown(v.version)}>
                  {versionName(t, v)}
                </button>
                <span>
                  {t('history.saved', { time: formatDateTimeKst(v.savedAt), name: v.savedBy ?? '—' })}
                </span>
                {v.submittedAt ? (
                  <span>
                    {t('history.submitted', {
                      time: formatDateTimeKst(v.submittedAt),
                      name: v.submittedBy ?? '',
                    })}
                  </span>
                ) : (
                  <span className={styles.muted}>{t('history.notSubmitted')}</span>
                )}
                {v.acknowledgedAt ? (
                  <span>
                    {t('history.acknowledged', {
                      time: formatDateTimeKst(v.acknowledgedAt),
                      name: v.acknowledgedBy ?? '',
                    })}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}

type T = ReturnType<typeof useTranslation<'safety'>>['t'];

function versionName(t: T, version: SaeVersion): string {
  return version.kind === 'initial'
    ? t('history.initial')
    : t('history.followUp', { number: version.version - 1 });
}

function ContentView({ content }: { content: SaeContent }) {
  const { t } = useTranslation('safety');
  const empty = <span className={styles.muted}>—</span>;
  return (
    <dl className={styles.contentView}>
      <dt>{t('fields.criteria')}</dt>
      <dd>
        {content.criteria.length > 0 ? content.criteria.map((c) => t(`criteria.${c}`)).join(', ') : empty}
      </dd>
      <dt>{t('fields.narrative')}</dt>
      <dd className={styles.prose}>{content.narrative || empty}</dd>
      <dt>{t('fields.relevantHistory')}</dt>
      <dd className={styles.prose}>{content.relevantHistory || empty}</dd>
      <dt>{t('fields.suspectProducts')}</dt>
      <dd>
        {content.suspectProducts.length > 0 ? (
          <ul className={styles.plainList}>
            {content.suspectProducts.map((product) => (
              <li key={product}>{product}</li>
            ))}
          </ul>
        ) : (
          empty
        )}
      </dd>
      <dt>{t('fields.outcome')}</dt>
      <dd>{content.outcome || empty}</dd>
      <dt>{t('fields.reporter')}</dt>
      <dd>{content.reporter || empty}</dd>
    </dl>
  );
}

function DraftForm({
  studyId,
  report,
  version,
}: {
  studyId: number;
  report: SaeReport;
  version: SaeVersion;
}) {
  const { t } = useTranslation('safety');
  const id = useId();
  const toast = useToast();
  const save = useSaveSaeDraft(studyId, report.id);
  const [content, setContent] = useState<SaeContent>(version.content);
  const [products, setProducts] = useState(version.content.suspectProducts.join('\n'));
  const [refusal, setRefusal] = useState<string | null>(null);

  function toggle(criterion: SaeCriterion) {
    const on = content.criteria.includes(criterion);
    setContent({
      ...content,
      criteria: on
        ? content.criteria.filter((c) => c !== criterion)
        : saeCriteria.filter((c) => c === criterion || content.criteria.includes(c)),
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    const suspectProducts = products
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    try {
      await save.mutateAsync({ rowVersion: report.rowVersion, content: { ...content, suspectProducts } });
      toast(t('report.saved'), 'success');
    } catch (error) {
      setRefusal(errorText(error));
    }
  }

  const area = (field: 'narrative' | 'relevantHistory', rows: number) => (
    <div className={styles.field}>
      <label htmlFor={`${id}-${field}`}>{t(`fields.${field}`)}</label>
      <textarea
        id={`${id}-${field}`}
        rows={rows}
        value={content[field]}
        maxLength={field === 'narrative' ? 20_000 : 10_000}
        onChange={(event) => setContent({ ...content, [field]: event.target.value })}
      />
    </div>
  );

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} aria-label={t('report.form')}>
      <fieldset className={styles.criteria}>
        <legend>{t('fields.criteria')}</legend>
        {saeCriteria.map((criterion) => (
          <label key={criterion} className={styles.check}>
            <input
              type="checkbox"
              checked={content.criteria.includes(criterion)}
              onChange={() => toggle(criterion)}
            />
            {t(`criteria.${criterion}`)}
          </label>
        ))}
      </fieldset>
      {area('narrative', 6)}
      {area('relevantHistory', 3)}
      <div className={styles.field}>
        <label htmlFor={`${id}-products`}>{t('fields.suspectProducts')}</label>
        <textarea
          id={`${id}-products`}
          rows={3}
          value={products}
          onChange={(event) => setProducts(event.target.value)}
        />
        <span className={styles.muted}>{t('fields.suspectProductsHint')}</span>
      </div>
      <TextField
        label={t('fields.outcome')}
        value={content.outcome}
        maxLength={2000}
        onChange={(event) => setContent({ ...content, outcome: event.target.value })}
      />
      <TextField
        label={t('fields.reporter')}
        value={content.reporter}
        maxLength={500}
        onChange={(event) => setContent({ ...content, reporter: event.target.value })}
      />
      {refusal ? (
        <p className={styles.refusal} role="alert">
          {refusal}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <Button type="submit" variant="secondary" disabled={save.isPending}>
          {save.isPending ? t('report.saving') : t('report.save')}
        </Button>
      </div>
    </form>
  );
}

function Actions({ studyId, report }: { studyId: number; report: SaeReport }) {
  const { t, i18n } = useTranslation('safety');
  const modals = useModalStack();
  const toast = useToast();
  const me = useMe();
  const submit = useSubmitSaeReport(studyId, report.id);
  const followUp = useStartSaeFollowUp(studyId, report.id);
  const acknowledge = useAcknowledgeSaeReport(studyId, report.id);
  const language = i18n.language === 'en' ? 'en' : 'ko';

  async function sign(request: { password: string; code?: string }): Promise<string | null> {
    try {
      await submit.mutateAsync({ rowVersion: report.rowVersion, ...request });
    } catch (error) {
      return errorText(error);
    }
    toast(t('report.submitted'), 'success');
    return null;
  }

  async function run(action: 'followUp' | 'acknowledge') {
    try {
      await (action === 'followUp' ? followUp : acknowledge).mutateAsync({ rowVersion: report.rowVersion });
      toast(t(action === 'followUp' ? 'report.followUpStarted' : 'report.acknowledged'), 'success');
    } catch (error) {
      toast(errorText(error), 'error');
    }
  }

  if (!report.canSubmit && !report.canFollowUp && !report.canAcknowledge) return null;
  return (
    <div className={styles.buttons}>
      {report.canSubmit ? (
        <Button onClick={() => modals.open(SUBMIT_MODAL)}>{t('report.submit')}</Button>
      ) : null}
      {report.canFollowUp ? (
        <Button variant="secondary" disabled={followUp.isPending} onClick={() => void run('followUp')}>
          {t('report.startFollowUp')}
        </Button>
      ) : null}
      {report.canAcknowledge ? (
        <Button disabled={acknowledge.isPending} onClick={() => void run('acknowledge')}>
          {t('report.acknowledge')}
        </Button>
      ) : null}
      {report.canSubmit ? (
        <SignatureDialog
          name={SUBMIT_MODAL}
          title={t('report.signTitle')}
          description={t('report.signDescription', { name: me.data?.user.name ?? '' })}
          meaning={SAE_SIGNATURE_MEANING[language]}
          submitLabel={t('report.signSubmit')}
          pendingLabel={t('report.signPending')}
          onSubmit={sign}
        />
      ) : null}
    </div>
  );
}

/** KST wall-clock text of an instant, as a datetime-local input takes it. */
function kstInputValue(iso: string): string {
  return new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 16);
}

function Awareness({ studyId, report }: { studyId: number; report: SaeReport }) {
  const { t } = useTranslation('safety');
  const id = useId();
  const toast = useToast();
  const change = useChangeSaeAwareness(studyId, report.id);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(kstInputValue(report.awarenessAt));
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setRefusal(t('awareness.reasonRequired'));
      return;
    }
    try {
      await change.mutateAsync({ rowVersion: report.rowVersion, awarenessAt: `${value}:00+09:00`, reason });
      toast(t('awareness.changed'), 'success');
      setOpen(false);
      setReason('');
      setRefusal(null);
    } catch (error) {
      setRefusal(errorText(error));
    }
  }

  if (!open)
    return (
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        {t('awareness.change')}
      </Button>
    );
  return (
    <form className={styles.awareness} onSubmit={(event) => void submit(event)}>
      <div className={styles.field}>
        <label htmlFor={`${id}-at`}>{t('awareness.label')}</label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      <TextField
        label={t('awareness.reason')}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      {refusal ? (
        <p className={styles.refusal} role="alert">
          {refusal}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <Button type="submit" size="sm" disabled={change.isPending}>
          {t('awareness.save')}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
          {t('awareness.cancel')}
        </Button>
      </div>
    </form>
  );
}
