import {
  type DefinitionImportFormat,
  type DefinitionImportPreview,
  type DefinitionImportProblem,
  type DefinitionImportRequest,
  definitionImportFormats,
} from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, sortedValueColumn } from '../../../components/data-table/data-table.tsx';
import { DefinitionDiffTable } from '../../../components/definition-diff-table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { useConfirmDefinitionImport, usePreviewDefinitionImport } from '../api/definition-import.ts';
import { useStudies } from '../api/get-studies.ts';
import { AdminSection } from './admin-section.tsx';
import styles from './admin-ui.module.css';
import { Field } from './form-field.tsx';
import { QueryStatus } from './query-status.tsx';
import { ServerError } from './server-error.tsx';

const severityBadge: Record<DefinitionImportProblem['severity'], string> = {
  error: styles.badgeBad ?? '',
  warning: styles.badgeInfo ?? '',
  note: '',
};

/** One group of keys a preview lists (forms added, items removed…), shown when it has any; removals stand out. */
function KeyList({
  title,
  keys,
  removal = false,
}: {
  title: string;
  keys: readonly string[];
  removal?: boolean;
}) {
  if (keys.length === 0) return null;
  return (
    <details className={`${styles.changeList} ${removal ? styles.changeRemoved : ''}`}>
      <summary>
        {title} ({keys.length})
      </summary>
      <p>{keys.join(', ')}</p>
    </details>
  );
}

/** The files each format is chosen from. */
const acceptedFiles: Record<DefinitionImportFormat, string> = {
  redcapDictionary: '.csv,text/csv',
  odmMetadata: '.xml,.odm,application/xml,text/xml',
  workbook: '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  definitionJson: '.json,application/json',
};

/** A binary file as base64 text, as the import request carries a workbook (in chunks: a large file overflows one call). */
async function base64OfFile(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** A file input drawn as the admin pages' button, with the chosen file's name beside it. */
function FileChoice({
  label,
  hint,
  accept,
  file,
  onChoose,
}: {
  label: string;
  hint: string;
  accept: string;
  file: File | null;
  onChoose: (file: File | null) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Field label={label} hint={hint}>
      {({ inputId, describedBy }) => (
        <div className={styles.fileChoice}>
          <label className={`${styles.button} ${styles.fileButton}`} htmlFor={inputId}>
            {t('import.choose')}
            <input
              id={inputId}
              type="file"
              accept={accept}
              className={styles.fileInput}
              aria-describedby={describedBy}
              onChange={(event) => onChoose(event.target.files?.[0] ?? null)}
            />
          </label>
          <span className={styles.muted}>{file?.name ?? t('import.noFile')}</span>
        </div>
      )}
    </Field>
  );
}

/** A file's problems, each with its line (or row) and column, as the server lists them. */
function ProblemTable({ problems }: { problems: DefinitionImportProblem[] }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <DataTable<DefinitionImportProblem>
      id="definition-import-problems"
      label={t('import.problems')}
      columns={[
        {
          id: 'severity',
          header: t('import.columns.severity'),
          cell: (problem) => (
            <span className={`${styles.badge} ${severityBadge[problem.severity]}`}>
              {t(`import.severities.${problem.severity}`)}
            </span>
          ),
        },
        {
          id: 'line',
          header: t('import.columns.line'),
          // A problem of the whole file has no line: blank, sorted first.
          sortValue: (problem) => problem.line ?? 0,
          cell: (problem) => problem.line ?? '',
        },
        sortedValueColumn('column', t('import.columns.column'), (problem) => problem.column ?? ''),
        sortedValueColumn('field', t('import.columns.field'), (problem) => problem.field ?? ''),
        {
          id: 'message',
          header: t('import.columns.message'),
          wrap: true,
          cell: (problem) => problem.message[i18n.language === 'en' ? 'en' : 'ko'],
        },
      ]}
      rows={problems}
      rowKey={(problem) => `${problem.line}-${problem.column}-${problem.message.en}`}
      sorting={{ mode: 'client' }}
      fit
      emptyMessage={t('import.noProblems')}
    />
  );
}

/**
 * The problems a refused file came back with (422 `unreadable_definition_file`). An error's details
 * carry each message in the language the request asked for only (http/errors.ts), where a preview
 * carries both: the one text stands for both here.
 */
function problemsOfError(error: unknown): DefinitionImportProblem[] {
  if (!(error instanceof ApiError) || error.code !== 'unreadable_definition_file') return [];
  const { problems } = (error.details ?? {}) as {
    problems?: (Omit<DefinitionImportProblem, 'message'> & { message: string })[];
  };
  if (!Array.isArray(problems)) return [];
  return problems.map((problem) => ({ ...problem, message: { ko: problem.message, en: problem.message } }));
}

/**
 * `/admin/studies/import/:studyId` (issue 47 item 5): a design file — a REDCap data dictionary (with
 * its instrument–event mapping for the schedule), CDISC ODM metadata, a workbook or a definition
 * document — read by the server and shown before anything is written: what it creates, what it adds to, removes from and changes in the current version, and
 * every problem with its line and column. Confirming sends the same files with the preview's hash.
 */
export function DefinitionImportPage() {
  const { t, i18n } = useTranslation('admin');
  const studyId = Number(useParams().studyId);
  const studies = useStudies();
  const study = studies.data?.find((candidate) => candidate.id === studyId);
  const preview = usePreviewDefinitionImport(studyId);
  const confirm = useConfirmDefinitionImport(studyId);
  const [format, setFormat] = useState<DefinitionImportFormat>('redcapDictionary');
  const [dictionary, setDictionary] = useState<File | null>(null);
  const [mapping, setMapping] = useState<File | null>(null);
  const [language, setLanguage] = useState<'ko' | 'en'>(i18n.language === 'en' ? 'en' : 'ko');
  const [request, setRequest] = useState<DefinitionImportRequest | null>(null);

  async function readFiles(event: FormEvent) {
    event.preventDefault();
    if (!dictionary) return;
    confirm.reset();
    const read: DefinitionImportRequest = {
      format,
      file: format === 'workbook' ? await base64OfFile(dictionary) : await dictionary.text(),
      language,
      ...(mapping && format === 'redcapDictionary' ? { eventMapping: await mapping.text() } : {}),
    };
    setRequest(read);
    preview.mutate(read);
  }

  const shown: DefinitionImportPreview | undefined = preview.data;

  return (
    <AdminSection
      heading={t('import.heading', { study: study?.code ?? '' })}
      description={t('import.description')}
      addLabel=""
    >
      <QueryStatus
        isPending={studies.isPending}
        error={studies.error}
        onRetry={() => void studies.refetch()}
      />
      <p>
        <Link to={paths.adminStudies}>{t('import.back')}</Link>
      </p>
      <form className={styles.form} onSubmit={(event) => void readFiles(event)}>
        <Field label={t('import.format')}>
          {({ inputId }) => (
            <select
              id={inputId}
              className={styles.select}
              value={format}
              onChange={(event) => {
                setFormat(event.target.value as DefinitionImportFormat);
                setDictionary(null);
                preview.reset();
              }}
            >
              {definitionImportFormats.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`import.formats.${choice}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <FileChoice
          key={format}
          label={t(`import.files.${format}`)}
          hint={t(`import.fileHints.${format}`)}
          accept={acceptedFiles[format]}
          file={dictionary}
          onChoose={setDictionary}
        />
        {format === 'redcapDictionary' && (
          <FileChoice
            label={t('import.mapping')}
            hint={t('import.mappingHint')}
            accept={acceptedFiles.redcapDictionary}
            file={mapping}
            onChoose={setMapping}
          />
        )}
        <Field label={t('import.language')}>
          {({ inputId }) => (
            <select
              id={inputId}
              className={`${styles.select} ${styles.narrowSelect}`}
              value={language}
              onChange={(event) => setLanguage(event.target.value === 'en' ? 'en' : 'ko')}
            >
              <option value="ko">{t('import.languages.ko')}</option>
              <option value="en">{t('import.languages.en')}</option>
            </select>
          )}
        </Field>
        <div className={styles.dialogActions}>
          <button
            type="submit"
            className={`${styles.button} ${styles.primary}`}
            disabled={!dictionary || preview.isPending}
          >
            {preview.isPending ? t('import.reading') : t('import.preview')}
          </button>
        </div>
      </form>
      <ServerError error={preview.error} />
      {problemsOfError(preview.error).length > 0 && (
        <ProblemTable problems={problemsOfError(preview.error)} />
      )}
      {shown && (
        <section aria-label={t('import.result')}>
          <h3 className={styles.heading}>{t('import.result')}</h3>
          <dl className={styles.importCounts}>
            {(['visits', 'forms', 'items', 'codeLists', 'logic'] as const).map((count) => (
              <div key={count}>
                <dt>{t(`import.counts.${count}`)}</dt>
                <dd>{shown.counts[count]}</dd>
              </div>
            ))}
          </dl>
          <KeyList title={t('import.changes.formsAdded')} keys={shown.changes.forms.added} />
          <KeyList removal title={t('import.changes.formsRemoved')} keys={shown.changes.forms.removed} />
          <KeyList title={t('import.changes.visitsAdded')} keys={shown.changes.visits.added} />
          <KeyList removal title={t('import.changes.visitsRemoved')} keys={shown.changes.visits.removed} />
          <KeyList title={t('import.changes.itemsAdded')} keys={shown.changes.items.added} />
          <KeyList removal title={t('import.changes.itemsRemoved')} keys={shown.changes.items.removed} />
          <KeyList
            title={t('import.changes.itemsChanged')}
            keys={shown.changes.items.changed.map(
              (change) =>
                `${change.item} (${change.changes.map((what) => t(`import.itemChanges.${what}`)).join(', ')})`,
            )}
          />
          <KeyList title={t('import.changes.codeListsChanged')} keys={shown.changes.codeLists.changed} />
          {shown.differences.length > 0 && (
            <>
              <h4 className={styles.heading}>
                {t('import.changes.all', { count: shown.differences.length })}
              </h4>
              <DefinitionDiffTable
                id="definition-import-differences"
                label={t('import.changes.all', { count: shown.differences.length })}
                lines={shown.differences}
                emptyMessage={t('import.changes.none')}
              />
            </>
          )}
          <ProblemTable problems={shown.problems} />
          <ServerError error={confirm.error} />
          {confirm.isSuccess ? (
            <p className={styles.success} role="status">
              {t('import.imported', { version: confirm.data.version })}
            </p>
          ) : (
            <div className={styles.dialogActions}>
              {!shown.importable && <p className={styles.muted}>{t('import.hasErrors')}</p>}
              {shown.importable && !shown.canConfirm && (
                <p className={styles.muted}>{t('import.notInDesign')}</p>
              )}
              <button
                type="button"
                className={`${styles.button} ${styles.primary}`}
                disabled={!shown.canConfirm || !request || confirm.isPending}
                onClick={() => request && confirm.mutate({ ...request, contentHash: shown.contentHash })}
              >
                {t('import.confirm')}
              </button>
            </div>
          )}
        </section>
      )}
    </AdminSection>
  );
}
