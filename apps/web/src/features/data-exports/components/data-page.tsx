import {
  type DataExport,
  type DataExportFormat,
  type DataExportLabels,
  type DataExportValuesAsOf,
  dataExportFormats,
  dataExportLabelLanguages,
  dataExportValuesAsOf,
  isTableFormat,
  type SiteSummary,
  type StartDataExportRequest,
  type SubjectStatus,
  subjectStatuses,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import type { TFunction } from 'i18next';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { ListPage, listStyles } from '../../../components/list-page.tsx';
import { usePageParam } from '../../../components/pagination.tsx';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useMe } from '../../../lib/me.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { downloadUrl, isOpen, useCancelExport, useDataExports, useStartExport } from '../api/data-exports.ts';
import styles from './data.module.css';
import { SiteCasebooks } from './site-casebooks.tsx';

const PAGE_SIZE = 10;
/** The locale key of each format's name (i18n keys cannot hold the version's dots). */
const formatLabelKey: Record<DataExportFormat, string> = {
  'odm-1.3.2': 'odm132',
  'odm-2.0': 'odm20',
  'tables-csv': 'tablesCsv',
  'tables-xlsx': 'tablesXlsx',
};

/** `/data/{id}`: export the study's data (DM, ADMIN) and follow the exports to download. */
export function DataPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to="/" replace />;
  return <DataExports studyId={studyId} />;
}

function DataExports({ studyId }: { studyId: number }) {
  const { t } = useTranslation('data');
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const mayExport = membership?.abilities.includes('data.export') ?? false;
  const [page] = usePageParam();
  const list = useDataExports(studyId, page, PAGE_SIZE, mayExport);

  return (
    <ListPage title={t('page.title')}>
      {!membership ? null : !mayExport ? (
        <p className={`${listStyles.card} ${styles.notAllowed}`}>{t('page.notAllowed')}</p>
      ) : (
        <>
          <ExportForm studyId={studyId} sites={membership.sites} />
          <SiteCasebooks studyId={studyId} sites={membership.sites} />
          <DataTable<DataExport>
            id="data-exports"
            label={t('list.caption')}
            columns={exportColumns(t, studyId, membership.sites)}
            rows={list.data?.exports}
            rowKey={(job) => String(job.id)}
            rowAttributes={(job) => ({ 'data-export': String(job.id) })}
            {...tableLoadState(list, t('page.loadFailed'))}
            fit
            emptyMessage={t('list.empty')}
            pager={list.data ? { total: list.data.total, pageSize: PAGE_SIZE } : null}
          />
        </>
      )}
    </ListPage>
  );
}

/**
 * What to export: sites and statuses (none ticked = all), all forms or some, the format, and with
 * it the audit trail (ODM) or, for the tables, the value labels and whether the values are given as of
 * the current definition version or as entered (after an amendment they differ); in
 * every format, whether the personal-data items of the study definition are masked.
 */
function ExportForm({ studyId, sites }: { studyId: number; sites: readonly SiteSummary[] }) {
  const { t, i18n } = useTranslation(['data', 'subjects']);
  const language = (i18n.language === 'en' ? 'en' : 'ko') satisfies Language;
  const id = useId();
  const definition = useStudyDefinition(studyId);
  const start = useStartExport(studyId);
  const toast = useToast();
  const [format, setFormat] = useState<DataExportFormat>('odm-1.3.2');
  const [auditTrail, setAuditTrail] = useState(true);
  const [labels, setLabels] = useState<DataExportLabels | null>(null);
  const [maskPersonalData, setMaskPersonalData] = useState(false);
  const [valuesAsOf, setValuesAsOf] = useState<DataExportValuesAsOf>('current');
  const tables = isTableFormat(format);
  const [siteIds, setSiteIds] = useState<number[]>([]);
  const [statuses, setStatuses] = useState<SubjectStatus[]>([]);
  const [someForms, setSomeForms] = useState(false);
  const [formKeys, setFormKeys] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  const toggle = <T,>(list: T[], value: T) =>
    list.includes(value) ? list.filter((entry) => entry !== value) : [...list, value];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (someForms && formKeys.length === 0) {
      setProblem(t('form.chooseForms'));
      return;
    }
    setProblem(null);
    // Each format gets only its own options: the server refuses labels and values as entered with
    // ODM (its audit trail holds what was entered), and the tables have no audit trail to add.
    const request: StartDataExportRequest = {
      format,
      auditTrail: tables ? false : auditTrail,
      ...(tables && labels !== null ? { labels } : {}),
      ...(tables ? { valuesAsOf } : {}),
      maskPersonalData,
      scope: {
        ...(siteIds.length > 0 ? { siteIds } : {}),
        ...(statuses.length > 0 ? { statuses } : {}),
        ...(someForms ? { formKeys } : {}),
      },
    };
    try {
      await start.mutateAsync(request);
      toast(t('form.started'), 'success');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <section className={`${listStyles.card} ${styles.form}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.formTitle}>
        {t('form.title')}
      </h2>
      <form noValidate onSubmit={(event) => void submit(event)} className={styles.fields}>
        <fieldset className={styles.fieldset}>
          <legend className={listStyles.label}>{t('form.sites')}</legend>
          <p className={styles.hint}>{t('form.noneIsAll')}</p>
          <div className={styles.choices}>
            {sites.map((site) => (
              <label key={site.id} className={styles.choice}>
                <input
                  type="checkbox"
                  checked={siteIds.includes(site.id)}
                  onChange={() => setSiteIds(toggle(siteIds, site.id))}
                />
                {site.code} {site.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={listStyles.label}>{t('form.statuses')}</legend>
          <p className={styles.hint}>{t('form.noneIsAll')}</p>
          <div className={styles.choices}>
            {subjectStatuses.map((status) => (
              <label key={status} className={styles.choice}>
                <input
                  type="checkbox"
                  checked={statuses.includes(status)}
                  onChange={() => setStatuses(toggle(statuses, status))}
                />
                {t(`subjects:status.${status}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={listStyles.label}>{t('form.forms')}</legend>
          <div className={styles.choices}>
            <label className={styles.choice}>
              <input
                type="radio"
                name={`${id}-forms`}
                checked={!someForms}
                onChange={() => setSomeForms(false)}
              />
              {t('form.allForms')}
            </label>
            <label className={styles.choice}>
              <input
                type="radio"
                name={`${id}-forms`}
                checked={someForms}
                onChange={() => setSomeForms(true)}
              />
              {t('form.someForms')}
            </label>
          </div>
          {someForms && (
            <div className={`${styles.choices} ${styles.formList}`}>
              {(definition.data?.definition.forms ?? []).map((form) => (
                <label key={form.key} className={styles.choice}>
                  <input
                    type="checkbox"
                    checked={formKeys.includes(form.key)}
                    onChange={() => setFormKeys(toggle(formKeys, form.key))}
                  />
                  {form.label[language]}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={listStyles.label}>{t('form.format')}</legend>
          <RadioChoices
            name={`${id}-format`}
            options={dataExportFormats}
            value={format}
            onChange={setFormat}
            label={(option) => t(`formats.${formatLabelKey[option]}`)}
          />
          {!tables && (
            <label className={styles.choice}>
              <input type="checkbox" checked={auditTrail} onChange={() => setAuditTrail(!auditTrail)} />
              {t('form.auditTrail')}
            </label>
          )}
        </fieldset>
        {tables && (
          <fieldset className={styles.fieldset}>
            <legend className={listStyles.label}>{t('form.labels')}</legend>
            <p className={styles.hint}>{t('form.labelsHint')}</p>
            <RadioChoices
              name={`${id}-labels`}
              options={[null, ...dataExportLabelLanguages]}
              value={labels}
              onChange={setLabels}
              label={(option) => t(`labels.${option ?? 'none'}`)}
            />
          </fieldset>
        )}
        {tables && (
          <fieldset className={styles.fieldset}>
            <legend className={listStyles.label}>{t('form.valuesAsOf')}</legend>
            <RadioChoices
              name={`${id}-values-as-of`}
              options={dataExportValuesAsOf}
              value={valuesAsOf}
              onChange={setValuesAsOf}
              label={(option) => t(`valuesAsOf.${option}`)}
            />
            <p className={styles.hint}>{t(`valuesAsOfHint.${valuesAsOf}`)}</p>
          </fieldset>
        )}
        <div className={styles.fieldset}>
          <label className={styles.choice}>
            <input
              type="checkbox"
              checked={maskPersonalData}
              aria-describedby={`${id}-mask-hint`}
              onChange={() => setMaskPersonalData(!maskPersonalData)}
            />
            {t('form.maskPersonalData')}
          </label>
          <p id={`${id}-mask-hint`} className={styles.hint}>
            {t('form.maskPersonalDataHint')}
          </p>
        </div>
        {problem && (
          <p className={styles.problem} role="alert">
            {problem}
          </p>
        )}
        <div className={styles.actions}>
          <Button type="submit" disabled={start.isPending}>
            {t('form.start')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** One choice among a few, as a row of radio buttons (the format, the labels, the values' version). */
function RadioChoices<Option>({
  name,
  options,
  value,
  onChange,
  label,
}: {
  name: string;
  options: readonly Option[];
  value: Option;
  onChange: (option: Option) => void;
  label: (option: Option) => string;
}) {
  return (
    <div className={styles.choices}>
      {options.map((option) => (
        <label key={String(option)} className={styles.choice}>
          <input type="radio" name={name} checked={value === option} onChange={() => onChange(option)} />
          {label(option)}
        </label>
      ))}
    </div>
  );
}

/** The export list's columns: who asked and when, format, scope, state, progress, cancel or download. */
function exportColumns(
  t: TFunction<'data'>,
  studyId: number,
  sites: readonly SiteSummary[],
): DataTableColumn<DataExport>[] {
  return [
    {
      id: 'requested',
      header: t('list.requested'),
      hideable: false,
      cell: (job) => (
        <>
          <div>{job.requestedBy.name}</div>
          <div className={styles.muted}>{formatDateTimeKst(job.createdAt)}</div>
        </>
      ),
    },
    {
      id: 'format',
      header: t('list.format'),
      cell: (job) => (
        <>
          <div>{t(`formats.${formatLabelKey[job.format]}`)}</div>
          <div className={styles.muted}>
            {isTableFormat(job.format)
              ? job.labels === null
                ? t('list.labelsNone')
                : t('list.labelsIn', { language: t(`labels.${job.labels}`) })
              : job.auditTrail
                ? t('list.withAudit')
                : t('list.withoutAudit')}
          </div>
          {isTableFormat(job.format) && (
            <div className={styles.muted}>{t(`valuesAsOf.${job.valuesAsOf}`)}</div>
          )}
          {job.maskPersonalData && <div className={styles.muted}>{t('list.masked')}</div>}
        </>
      ),
    },
    {
      id: 'scope',
      header: t('list.scope'),
      wrap: true,
      cell: (job) => <ExportScope job={job} sites={sites} />,
    },
    {
      id: 'state',
      header: t('list.state'),
      cell: (job) => (
        <>
          <span className={styles.state} data-state={job.state}>
            {t(`states.${job.state}`)}
          </span>
          {job.error && <div className={styles.muted}>{job.error}</div>}
          {job.finishedAt && <div className={styles.muted}>{formatDateTimeKst(job.finishedAt)}</div>}
        </>
      ),
    },
    { id: 'progress', header: t('list.progress'), cell: (job) => <ExportProgress job={job} /> },
    {
      id: 'actions',
      header: t('list.actions'),
      hideable: false,
      cell: (job) => <ExportAction studyId={studyId} job={job} />,
    },
  ];
}

/** The sites, statuses and forms a job covered, one line each. */
function ExportScope({ job, sites }: { job: DataExport; sites: readonly SiteSummary[] }) {
  const { t } = useTranslation(['data', 'subjects']);
  const siteCodes = job.scope.siteIds?.map(
    (siteId) => sites.find((site) => site.id === siteId)?.code ?? siteId,
  );
  const scope = [
    siteCodes ? siteCodes.join(', ') : t('list.allSites'),
    job.scope.statuses
      ? job.scope.statuses.map((status) => t(`subjects:status.${status}`)).join(', ')
      : t('list.allStatuses'),
    job.scope.formKeys ? t('list.someForms', { count: job.scope.formKeys.length }) : t('list.allForms'),
  ];
  return (
    <>
      {scope.map((part) => (
        <div key={part}>{part}</div>
      ))}
    </>
  );
}

/** Cancel while the job runs; the file's download link once it is done. */
function ExportAction({ studyId, job }: { studyId: number; job: DataExport }) {
  const { t } = useTranslation('data');
  const cancel = useCancelExport(studyId);
  if (isOpen(job))
    return (
      <Button variant="secondary" size="sm" disabled={cancel.isPending} onClick={() => cancel.mutate(job.id)}>
        {t('list.cancel')}
      </Button>
    );
  if (job.state === 'done')
    return (
      <a className={styles.download} href={downloadUrl(studyId, job.id)} download={job.fileName ?? undefined}>
        {t('list.download')}
      </a>
    );
  return null;
}

/** 5415 → "5,415" (Korean groups digits the same way). */
const grouped = (value: number) => value.toLocaleString('en-US');

/** Values done of the total, as a bar with its numbers; the total is known once the job has counted. */
function ExportProgress({ job }: { job: DataExport }) {
  const { t } = useTranslation('data');
  const total = job.valuesTotal;
  const label =
    total === null
      ? t('progress.counting')
      : t('progress.values', { done: grouped(job.valuesDone), total: grouped(total) });
  return (
    <div className={styles.progress}>
      <ProgressBar
        value={job.valuesDone}
        max={total ?? 0}
        label={t('progress.label', { id: job.id })}
        valueText={label}
        tone={
          job.state === 'done'
            ? 'done'
            : job.state === 'failed' || job.state === 'cancelled'
              ? 'stopped'
              : 'active'
        }
        width="20rem"
      />
      <div className={styles.muted}>
        {label}
        {job.subjectsDone > 0 && ` · ${t('progress.subjects', { count: job.subjectsDone })}`}
      </div>
    </div>
  );
}
