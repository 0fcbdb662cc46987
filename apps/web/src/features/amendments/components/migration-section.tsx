import {
  type AmendmentMigration,
  type AmendmentSummary,
  approvalInEffect,
  type StartMigrationRequest,
  todayInKorea,
} from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { FilterChoice, listStyles } from '../../../components/list-page.tsx';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { findSubjectByNumber, useAmendmentMigrations, useStartMigration } from '../api/amendments.ts';
import styles from './amendments.module.css';

/**
 * A published amendment's migration (issue 49 item 4): the study's subjects still on the previous
 * version and already on the new one, each site's approval date and what it starts, the start of a job
 * for the whole study, one site or one subject (confirmed first; a refusal such as 409
 * `migration_running` shown under the control that asked), and the jobs in the shared table — scope,
 * automatic or who started it, status, a progress bar (migrated + held + failed of the total), when it
 * ended, and the failures listed beneath their job. The jobs are read every 2 s while one is queued or
 * running (`useAmendmentMigrations`).
 */
export function MigrationSection({ studyId, amendment }: { studyId: number; amendment: AmendmentSummary }) {
  const { t } = useTranslation('amendments');
  const id = useId();
  const read = useAmendmentMigrations(studyId, amendment.id);
  const toVersion = amendment.toVersion ?? t('versionUnknown');
  const scopeName = (job: AmendmentMigration) =>
    t(`migration.scope.${job.scope}`, { target: job.target ?? '' });

  const columns: DataTableColumn<AmendmentMigration>[] = [
    {
      id: 'scope',
      header: t('migration.columns.scope'),
      cell: scopeName,
      rowHeader: true,
      hideable: false,
    },
    {
      id: 'startedBy',
      header: t('migration.columns.startedBy'),
      wrap: true,
      cell: (job) =>
        job.automatic || !job.requestedBy ? (
          t('migration.automatic')
        ) : (
          <>
            {job.requestedBy.name} · <DateTimeText value={job.requestedBy.at} />
          </>
        ),
    },
    {
      id: 'status',
      header: t('migration.columns.status'),
      cell: (job) => (
        <span className={styles.jobStatus} data-status={job.status}>
          {t(`migration.status.${job.status}`)}
        </span>
      ),
    },
    {
      id: 'progress',
      header: t('migration.columns.progress'),
      hideable: false,
      cell: (job) => (
        <JobProgress job={job} label={t('migration.progressLabel', { scope: scopeName(job) })} />
      ),
    },
    {
      id: 'finished',
      header: t('migration.columns.finished'),
      cell: (job) => (job.finishedAt ? <DateTimeText value={job.finishedAt} /> : '—'),
    },
  ];

  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('migration.title')}
      </h2>
      <p className={styles.hint}>{t('migration.intro', { to: toVersion })}</p>
      {read.data ? (
        <dl className={styles.migrationCounts}>
          <div>
            <dt>{t('migration.onFrom', { version: amendment.fromVersion })}</dt>
            <dd>{t('migration.subjectCount', { count: read.data.subjects.onFromVersion })}</dd>
          </div>
          <div>
            <dt>{t('migration.onTo', { version: toVersion })}</dt>
            <dd>{t('migration.subjectCount', { count: read.data.subjects.onToVersion })}</dd>
          </div>
        </dl>
      ) : null}
      <div className={styles.migrationColumns}>
        <SiteStarts amendment={amendment} />
        <StartMigration studyId={studyId} amendment={amendment} toVersion={toVersion} />
      </div>
      <DataTable
        id="amendment-migrations"
        label={t('migration.jobs')}
        columns={columns}
        rows={read.data?.migrations}
        rowKey={(job) => String(job.id)}
        rowAttributes={(job) => ({ 'data-status': job.status })}
        {...tableLoadState(read, t('migration.loadError'))}
        emptyMessage={t('migration.empty')}
        loadingMessage={t('page.loading')}
        fit
        pager={null}
        // A job's failures beneath it: the subject and why the next version refused it.
        expandedRow={(job) =>
          job.failures.length > 0
            ? {
                id: `${id}-failures-${job.id}`,
                content: (
                  <div className={styles.block}>
                    <h3 className={styles.blockTitle}>
                      {t('migration.failures', { scope: scopeName(job) })}
                    </h3>
                    <ul className={styles.lines}>
                      {job.failures.map((failure) => (
                        <li key={`${failure.subjectId}\n${failure.message}`} className={styles.refusal}>
                          <strong>{failure.subjectId}</strong> {failure.message}
                        </li>
                      ))}
                    </ul>
                  </div>
                ),
              }
            : null
        }
      />
      <p className={styles.hint}>{t('migration.legend')}</p>
    </section>
  );
}

/** A job's progress: a bar of the subjects processed (migrated, held, failed) of its total, and the counts. */
function JobProgress({ job, label }: { job: AmendmentMigration; label: string }) {
  const { t } = useTranslation('amendments');
  const processed = job.migrated + job.held + job.failed;
  const text = t('migration.progress', { processed, total: job.total });
  return (
    <span className={styles.jobProgress}>
      <ProgressBar
        value={processed}
        max={job.total}
        label={label}
        valueText={text}
        tone={job.status === 'done' ? 'done' : 'partial'}
      />
      <span className={styles.jobCounts}>
        <span>{text}</span>
        <span className={styles.element}>
          {t('migration.breakdown', { migrated: job.migrated, held: job.held, failed: job.failed })}
        </span>
      </span>
    </span>
  );
}

/** Each site's ethics approval date and what it starts: that day, the site's job by itself. */
function SiteStarts({ amendment }: { amendment: AmendmentSummary }) {
  const { t } = useTranslation('amendments');
  const today = todayInKorea();
  if (amendment.sites.length === 0) return null;
  return (
    <div className={styles.block}>
      <h3 className={styles.blockTitle}>{t('migration.sitesTitle')}</h3>
      <dl className={styles.facts}>
        {amendment.sites.map((site) => (
          <div key={site.siteId} className={styles.factRow}>
            <dt>
              {site.code} {site.name}
            </dt>
            <dd>
              {site.effectiveOn === null
                ? t('migration.siteNoDate')
                : approvalInEffect(site.effectiveOn, today)
                  ? t('migration.sitePast', { date: site.effectiveOn })
                  : t('migration.siteUpcoming', { date: site.effectiveOn })}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * The three ways to start a job now: every subject, one site's (a choice of the amendment's sites),
 * one subject's (its screening number, looked up through the subject list). Each asks first, then
 * sends; its refusal is shown under it.
 */
function StartMigration({
  studyId,
  amendment,
  toVersion,
}: {
  studyId: number;
  amendment: AmendmentSummary;
  toVersion: string;
}) {
  const { t } = useTranslation('amendments');
  const { confirm } = useAlert();
  const toast = useToast();
  const start = useStartMigration(studyId, amendment.id);
  const [siteId, setSiteId] = useState(String(amendment.sites[0]?.siteId ?? ''));
  const [subject, setSubject] = useState('');
  const [subjectProblem, setSubjectProblem] = useState<string | null>(null);
  const [problems, setProblems] = useState<Record<StartMigrationRequest['scope'], string | null>>({
    study: null,
    site: null,
    subject: null,
  });
  const [busy, setBusy] = useState<StartMigrationRequest['scope'] | null>(null);
  const sites = new Map(amendment.sites.map((site) => [String(site.siteId), site]));

  /** Asks, then sends; false when the user said no or the server refused (its message shown in place). */
  async function send(request: StartMigrationRequest, question: string): Promise<boolean> {
    setProblems((current) => ({ ...current, [request.scope]: null }));
    const confirmed = await confirm({
      title: t('migration.confirm.title'),
      message: question,
      confirmLabel: t('migration.confirm.submit'),
    });
    if (!confirmed) return false;
    try {
      await start.mutateAsync(request);
    } catch (error) {
      setProblems((current) => ({ ...current, [request.scope]: errorText(error) }));
      return false;
    }
    toast(t('migration.started'), 'success');
    return true;
  }

  /** Runs one control's start with its button busy; another control's start waits for it. */
  async function run(scope: StartMigrationRequest['scope'], work: () => Promise<unknown>) {
    if (busy) return;
    setBusy(scope);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  }

  function startSite(event: FormEvent) {
    event.preventDefault();
    const site = sites.get(siteId);
    if (!site) return;
    void run('site', () =>
      send(
        { scope: 'site', siteId: site.siteId },
        t('migration.confirm.site', { site: `${site.code} ${site.name}`, to: toVersion }),
      ),
    );
  }

  function startSubject(event: FormEvent) {
    event.preventDefault();
    const number = subject.trim();
    setSubjectProblem(null);
    if (number === '') {
      setSubjectProblem(t('migration.subjectRequired'));
      return;
    }
    void run('subject', async () => {
      let found: Awaited<ReturnType<typeof findSubjectByNumber>>;
      try {
        found = await findSubjectByNumber(studyId, number);
      } catch (error) {
        setProblems((current) => ({ ...current, subject: errorText(error) }));
        return;
      }
      if (!found) {
        setSubjectProblem(t('migration.subjectNotFound', { number }));
        return;
      }
      const sent = await send(
        { scope: 'subject', subjectId: found.pk },
        t('migration.confirm.subject', { subject: found.subjectId, to: toVersion }),
      );
      if (sent) setSubject('');
    });
  }

  return (
    <div className={styles.block}>
      <h3 className={styles.blockTitle}>{t('migration.startTitle')}</h3>
      <div className={styles.migrationStart}>
        <div className={styles.startControl}>
          <Button
            disabled={busy !== null}
            aria-busy={busy === 'study'}
            onClick={() =>
              void run('study', () =>
                send({ scope: 'study' }, t('migration.confirm.study', { to: toVersion })),
              )
            }
          >
            {t('migration.startAll')}
          </Button>
          <FormAlert message={problems.study} className={styles.error} />
        </div>
        {amendment.sites.length > 0 ? (
          <form className={styles.startControl} noValidate onSubmit={startSite}>
            <div className={styles.startRow}>
              <FilterChoice
                label={t('migration.site')}
                choices={amendment.sites.map((site) => String(site.siteId))}
                value={siteId}
                optionLabel={(choice) => {
                  const site = sites.get(choice);
                  return site ? `${site.code} · ${site.name}` : choice;
                }}
                onChange={setSiteId}
              />
              <Button type="submit" variant="secondary" disabled={busy !== null} aria-busy={busy === 'site'}>
                {t('migration.startSite')}
              </Button>
            </div>
            <FormAlert message={problems.site} className={styles.error} />
          </form>
        ) : null}
        <form className={styles.startControl} noValidate onSubmit={startSubject}>
          <div className={styles.startRow}>
            <TextField
              label={t('migration.subject')}
              value={subject}
              autoComplete="off"
              maxLength={100}
              error={subjectProblem ?? undefined}
              onChange={(event) => {
                setSubject(event.target.value);
                setSubjectProblem(null);
              }}
            />
            <Button type="submit" variant="secondary" disabled={busy !== null} aria-busy={busy === 'subject'}>
              {t('migration.startSubject')}
            </Button>
          </div>
          <FormAlert message={problems.subject} className={styles.error} />
        </form>
      </div>
    </div>
  );
}
