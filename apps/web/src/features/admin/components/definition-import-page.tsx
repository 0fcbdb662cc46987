import type {
  DefinitionImportPreview,
  DefinitionImportProblem,
  DefinitionImportRequest,
} from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, sortedValueColumn } from '../../../components/data-table/data-table.tsx';
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

/** A file input drawn as the admin pages' button, with the chosen file's name beside it. */
function FileChoice({
  label,
  hint,
  file,
  onChoose,
}: {
  label: string;
  hint: string;
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
              accept=".csv,text/csv"
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

/**
 * `/admin/studies/import/:studyId` (issue 47 item 5): a design file — a REDCap data dictionary, with
 * its instrument–event mapping for the schedule — read by the server and shown before anything is
 * written: what it creates, what it adds to, removes from and changes in the current version, and
 * every problem with its line and column. Confirming sends the same files with the preview's hash.
 */
export function DefinitionImportPage() {
  const { t, i18n } = useTranslation('admin');
  const studyId = Number(useParams().studyId);
  const studies = useStudies();
  const study = studies.data?.find((candidate) => candidate.id === studyId);
  const preview = usePreviewDefinitionImport(studyId);
  const confirm = useConfirmDefinitionImport(studyId);
  const [dictionary, setDictionary] = useState<File | null>(null);
  const [mapping, setMapping] = useState<File | null>(null);
  const [language, setLanguage] = useState<'ko' | 'en'>(i18n.language === 'en' ? 'en' : 'ko');
  const [request, setRequest] = useState<DefinitionImportRequest | null>(null);

  async function readFiles(event: FormEvent) {
    event.preventDefault();
    if (!dictionary) return;
    confirm.reset();
    const read: DefinitionImportRequest = {
      format: 'redcapDictionary',
      file: await dictionary.text(),
      language,
      ...(mapping ? { eventMapping: await mapping.text() } : {}),
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
        <FileChoice
          label={t('import.dictionary')}
          hint={t('import.dictionaryHint')}
          file={dictionary}
          onChoose={setDictionary}
        />
        <FileChoice
          label={t('import.mapping')}
          hint={t('import.mappingHint')}
          file={mapping}
          onChoose={setMapping}
        />
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
              sortedValueColumn('line', t('import.columns.line'), (problem) => problem.line ?? 0),
              sortedValueColumn('column', t('import.columns.column'), (problem) => problem.column ?? ''),
              sortedValueColumn('field', t('import.columns.field'), (problem) => problem.field ?? ''),
              {
                id: 'message',
                header: t('import.columns.message'),
                wrap: true,
                cell: (problem) => problem.message[i18n.language === 'en' ? 'en' : 'ko'],
              },
            ]}
            rows={shown.problems}
            rowKey={(problem) => `${problem.line}-${problem.column}-${problem.message.en}`}
            sorting={{ mode: 'client' }}
            fit
            emptyMessage={t('import.noProblems')}
          />
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
                disabled={!shown.canConfirm || !shown.contentHash || !request || confirm.isPending}
                onClick={() =>
                  request &&
                  shown.contentHash &&
                  confirm.mutate({ ...request, contentHash: shown.contentHash })
                }
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
