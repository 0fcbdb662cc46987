import type { AdminStudy } from '@cdms/contract';
import {
  type StudyDefinition,
  writeDefinitionWorkbook,
  writeDefinitionWorkbookTemplate,
  writeRedcapDictionary,
  XLSX_MEDIA_TYPE,
} from '@cdms/study';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, Link } from 'react-router';
import { saveBlob, saveDownload } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { definitionProblemsOf } from '../../../lib/study-definition.ts';
import { useStudyDefinition, useUploadDefinition } from '../api/study-definition.ts';
import { AdminDialog } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { QueryStatus } from './query-status.tsx';
import { ServerError } from './server-error.tsx';

/** Saves a text or a binary file of the user's downloads. */
function saveFile(name: string, content: string | Uint8Array<ArrayBuffer>, type: string) {
  saveBlob(new Blob([content], { type }), name);
}

/** Saves the current definition as a JSON file, as a designer edits it and uploads it again. */
function downloadDefinition(study: AdminStudy, version: string, definition: unknown) {
  saveFile(
    `${study.code}-definition-${version}.json`,
    `${JSON.stringify(definition, null, 2)}\n`,
    'application/json',
  );
}

/**
 * Saves the definition as REDCap would take it (issue 47 item 3): the data dictionary and its
 * instrument–event mapping, written in the browser by the same converter the import reads with,
 * in the language the user reads.
 */
function downloadRedcap(study: AdminStudy, version: string, definition: unknown, language: 'ko' | 'en') {
  const written = writeRedcapDictionary(definition as StudyDefinition, language);
  saveFile(`${study.code}-${version}-redcap-dictionary.csv`, written.dictionary, 'text/csv');
  saveFile(`${study.code}-${version}-redcap-event-mapping.csv`, written.eventMapping, 'text/csv');
}

/** The definition as the design workbook (issue 47 item 4), one sheet per part. */
function downloadWorkbook(study: AdminStudy, version: string, definition: unknown) {
  saveFile(
    `${study.code}-${version}-workbook.xlsx`,
    writeDefinitionWorkbook(definition as StudyDefinition) as Uint8Array<ArrayBuffer>,
    XLSX_MEDIA_TYPE,
  );
}

/**
 * A study's design document (issue 45 item 2): the current version and its content hash, its
 * download, and — while the study is in design — the upload of a new one. The server checks the
 * document; a refused one shows every problem with its place, and nothing was saved.
 */
export function DefinitionDialog({
  study,
  onOpenChange,
}: {
  study: AdminStudy;
  onOpenChange: (open: boolean) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const current = useStudyDefinition(study.id, study.hasDefinition);
  const upload = useUploadDefinition(study.id);
  // A file that is not JSON is refused here: the server would only say the same.
  const [readError, setReadError] = useState<string | null>(null);
  const inDesign = study.status === 'design';
  const problems = definitionProblemsOf(upload.error);

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReadError(null);
    upload.reset();
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      setReadError(t('studies.definition.notJson', { file: file.name }));
      return;
    }
    upload.mutate(document);
  }

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('studies.definition.title', { study: study.code })}
      description={t(
        inDesign ? 'studies.definition.descriptionDesign' : 'studies.definition.descriptionLive',
      )}
    >
      {study.hasDefinition ? (
        <QueryStatus
          isPending={current.isPending}
          error={current.error}
          onRetry={() => void current.refetch()}
        />
      ) : (
        <p className={styles.state}>{t('studies.definition.none')}</p>
      )}
      {current.data && (
        <dl className={styles.facts}>
          <dt>{t('studies.definition.version')}</dt>
          <dd>{current.data.version}</dd>
          <dt>{t('studies.definition.contentHash')}</dt>
          <dd className={styles.hash}>{current.data.contentHash}</dd>
        </dl>
      )}
      {upload.isSuccess && (
        <p className={styles.success} role="status">
          {t('studies.definition.uploaded', { version: upload.data.version })}
        </p>
      )}
      {readError && (
        <p className={styles.alert} role="alert">
          {readError}
        </p>
      )}
      {problems.length > 0 ? (
        <div className={styles.alert} role="alert">
          {upload.error instanceof Error ? upload.error.message : null}
          <ol className={styles.problems}>
            {problems.map((problem, index) => (
              // The same place may have several problems: the index keeps the keys apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
              <li key={index}>
                <code>{problem.path || '/'}</code> {problem.message}
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <ServerError error={upload.error} />
      )}
      <div className={styles.downloads}>
        <span className={styles.muted}>{t('studies.definition.downloadsLabel')}</span>
        {current.data && (
          <>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() =>
                current.data &&
                downloadRedcap(
                  study,
                  current.data.version,
                  current.data.definition,
                  i18n.language === 'en' ? 'en' : 'ko',
                )
              }
            >
              {t('studies.definition.downloadRedcap')}
            </button>
            <button
              type="button"
              className={styles.linkButton}
              // Every version, one MetaDataVersion each: written by the server, which holds them all.
              onClick={() =>
                void saveDownload(
                  `/api/studies/${study.id}/definition-versions/odm`,
                  `${study.code}-definition-versions-odm.xml`,
                )
              }
            >
              {t('studies.definition.downloadOdm')}
            </button>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() =>
                current.data && downloadWorkbook(study, current.data.version, current.data.definition)
              }
            >
              {t('studies.definition.downloadWorkbook')}
            </button>
          </>
        )}
        <button
          type="button"
          className={styles.linkButton}
          onClick={() =>
            saveFile(
              'cdms-definition-workbook-template.xlsx',
              writeDefinitionWorkbookTemplate() as Uint8Array<ArrayBuffer>,
              XLSX_MEDIA_TYPE,
            )
          }
        >
          {t('studies.definition.downloadTemplate')}
        </button>
      </div>
      <div className={styles.dialogActions}>
        {current.data && (
          <button
            type="button"
            className={styles.button}
            onClick={() =>
              current.data && downloadDefinition(study, current.data.version, current.data.definition)
            }
          >
            {t('studies.definition.download')}
          </button>
        )}
        <Link
          className={styles.button}
          to={generatePath(paths.adminStudyImport, { studyId: String(study.id) })}
          onClick={() => onOpenChange(false)}
        >
          {t('import.link')}
        </Link>
        {inDesign && (
          <label className={`${styles.button} ${styles.primary} ${styles.fileButton}`}>
            {upload.isPending ? t('studies.definition.uploading') : t('studies.definition.upload')}
            <input
              type="file"
              accept="application/json,.json"
              className={styles.fileInput}
              disabled={upload.isPending}
              onChange={(event) => void chooseFile(event)}
            />
          </label>
        )}
        <button type="button" className={styles.button} onClick={() => onOpenChange(false)}>
          {t('actions.close')}
        </button>
      </div>
    </AdminDialog>
  );
}
