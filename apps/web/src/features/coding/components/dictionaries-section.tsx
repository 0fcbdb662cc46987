import { type CodingDictionary, codingUploadKinds } from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  useApplyUpgrade,
  useCodingDictionaries,
  useUpgradePreview,
  useUploadDictionary,
} from '../api/coding.ts';
import { pathLine } from '../lib/coding-path.ts';
import styles from './coding.module.css';

type UploadKind = (typeof codingUploadKinds)[number];

/**
 * The keepers' part of the coding page (CODER, ADMIN: `coding.dictionaries`): the loaded versions,
 * an upload (a zip of the MedDRA ASCII or WHODrug B3 files, or the synonym CSV) and, for a version
 * loaded but not in use, what switching to it changes — then the switch.
 */
export function DictionariesSection({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('coding');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const toast = useToast();
  const list = useCodingDictionaries(studyId, true);
  const upload = useUploadDictionary(studyId);
  const apply = useApplyUpgrade(studyId);
  const [kind, setKind] = useState<UploadKind>('meddra');
  const [version, setVersion] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const preview = useUpgradePreview(studyId, previewId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    try {
      await upload.mutateAsync({ kind, version, file });
      toast(t('dictionaries.uploaded'), 'success');
      setFile(null);
      setVersion('');
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  async function switchTo(id: number) {
    try {
      const result = await apply.mutateAsync(id);
      toast(t('dictionaries.upgraded', result), 'success');
      setPreviewId(null);
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  const columns: DataTableColumn<CodingDictionary>[] = [
    { id: 'kind', header: t('dictionaries.kind'), cell: (row) => t(`kind.${row.kind}`) },
    { id: 'version', header: t('dictionaries.version'), rowHeader: true, cell: (row) => row.version },
    { id: 'terms', header: t('dictionaries.terms'), numeric: true, cell: (row) => row.termCount },
    {
      id: 'active',
      header: t('dictionaries.state'),
      cell: (row) => (row.active ? t('dictionaries.active') : t('dictionaries.inactive')),
    },
    {
      id: 'loaded',
      header: t('dictionaries.loaded'),
      wrap: true,
      cell: (row) => (
        <>
          <DateTimeText value={row.loadedAt} /> · {row.loadedBy}
        </>
      ),
    },
    {
      id: 'actions',
      header: t('dictionaries.actions'),
      cell: (row) =>
        row.active ? null : (
          <Button variant="secondary" size="sm" onClick={() => setPreviewId(row.id)}>
            {t('dictionaries.preview')}
          </Button>
        ),
    },
  ];

  return (
    <section className={styles.dictionaries} aria-labelledby="coding-dictionaries-title">
      <h2 id="coding-dictionaries-title" className={styles.sectionTitle}>
        {t('dictionaries.title')}
      </h2>
      <p className={styles.lead}>{t('dictionaries.lead')}</p>
      <DataTable<CodingDictionary>
        id="coding-dictionaries"
        label={t('dictionaries.tableLabel')}
        columns={columns}
        rows={list.data?.dictionaries ?? []}
        rowKey={(row) => String(row.id)}
        emptyMessage={t('dictionaries.none')}
      />
      <p className={styles.hint}>{t('dictionaries.synonyms', { count: list.data?.synonyms.count ?? 0 })}</p>
      <form className={styles.uploadForm} onSubmit={(event) => void submit(event)}>
        <label className={styles.searchLabel}>
          {t('dictionaries.uploadKind')}
          <select value={kind} onChange={(event) => setKind(event.target.value as UploadKind)}>
            {codingUploadKinds.map((choice) => (
              <option key={choice} value={choice}>
                {t(`upload.${choice}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.searchLabel}>
          {t('dictionaries.uploadVersion')}
          <input value={version} maxLength={40} onChange={(event) => setVersion(event.target.value)} />
        </label>
        <label className={styles.searchLabel}>
          {t('dictionaries.uploadFile')}
          <input
            type="file"
            accept={kind === 'synonyms' ? '.csv,text/csv' : '.zip,application/zip'}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </label>
        <Button type="submit" disabled={!file || upload.isPending}>
          {t('dictionaries.upload')}
        </Button>
      </form>
      {previewId !== null && preview.data ? (
        <div className={styles.preview} aria-live="polite">
          <h3 className={styles.panelTitle}>
            {t('dictionaries.previewTitle', { from: preview.data.from ?? '—', to: preview.data.to })}
          </h3>
          <p className={styles.hint}>
            {t('dictionaries.previewSummary', {
              changed: preview.data.changes.length,
              unchanged: preview.data.unchanged,
            })}
          </p>
          {preview.data.changes.length > 0 ? (
            <table className={styles.previewTable}>
              <thead>
                <tr>
                  <th scope="col">{t('columns.verbatim')}</th>
                  <th scope="col">{t('columns.subject')}</th>
                  <th scope="col">{t('dictionaries.change')}</th>
                  <th scope="col">{t('dictionaries.before')}</th>
                  <th scope="col">{t('dictionaries.after')}</th>
                </tr>
              </thead>
              <tbody>
                {preview.data.changes.map((change) => (
                  <tr key={change.assignmentId} data-change={change.change}>
                    <td>{change.verbatim}</td>
                    <td>{change.screeningNumber}</td>
                    <td>{t(`changes.${change.change}`)}</td>
                    <td>{pathLine(change.before, language)}</td>
                    <td>{pathLine(change.after, language) || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <div className={styles.panelActions}>
            <Button disabled={apply.isPending} onClick={() => void switchTo(previewId)}>
              {t('dictionaries.apply', { version: preview.data.to })}
            </Button>
            <Button variant="secondary" onClick={() => setPreviewId(null)}>
              {t('dictionaries.closePreview')}
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
