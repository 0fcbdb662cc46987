import type { TrainingModuleSummary, TrainingStatus } from '@cdms/contract';
import { trainingStatuses } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { useConfirmedChange } from '../../../components/confirmed-change.ts';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  ListPage,
  listStyles,
} from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import {
  downloadCertificate,
  downloadMatrix,
  downloadRecord,
  type MatrixFilters,
  useTrainingList,
  useTrainingMatrix,
  useTrainingSettings,
} from '../api/training.ts';
import styles from './training.module.css';
import { TRAINING_MODULE_MODAL, TrainingModuleDialog } from './training-module-dialog.tsx';
import { TrainingReader } from './training-reader.tsx';
import { TrainingStatusBadge } from './training-status.tsx';

const MODULE_PARAM = 'module';

/**
 * `/system-e-training/:studyId` (issue 18 item 5): the member's required training modules with their
 * standing — read, mark complete or pass the quiz, download the certificate —; DM and ADMIN also
 * write modules, switch the data-entry gate, and read the completion matrix (members × modules).
 */
export function TrainingPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Training studyId={studyId} />;
}

function Training({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('training');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const [searchParams, setSearchParams] = useSearchParams();
  const list = useTrainingList(studyId);
  const modals = useModalStack();
  const toast = useToast();
  const [editing, setEditing] = useState<number | null>(null);
  const selected = Number(searchParams.get(MODULE_PARAM)) || null;
  const data = list.data;
  const canManage = data?.canManage ?? false;

  function open(moduleId: number | null) {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (moduleId === null) next.delete(MODULE_PARAM);
      else next.set(MODULE_PARAM, String(moduleId));
      return next;
    });
  }

  async function certificate(moduleId: number) {
    try {
      await downloadCertificate(studyId, moduleId, language);
    } catch (failure) {
      toast(failure instanceof Error ? failure.message : String(failure), 'error');
    }
  }

  /** The reader's certificate of every module completed (issue 51). */
  async function record() {
    try {
      await downloadRecord(studyId, null, language);
    } catch (failure) {
      toast(failure instanceof Error ? failure.message : String(failure), 'error');
    }
  }
  const completedAny = data?.modules.some((row) => row.myStatus === 'completed' && row.state === 'published');

  const columns: DataTableColumn<TrainingModuleSummary>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      hideable: false,
      sortValue: (row) => row.title,
      cell: (row) => (
        <button type="button" className={styles.linkButton} onClick={() => open(row.id)}>
          {row.title}
        </button>
      ),
    },
    { id: 'roles', header: t('columns.roles'), cell: (row) => row.roles.join(', ') },
    { id: 'version', header: t('columns.version'), numeric: true, cell: (row) => `v${row.version}` },
    ...(canManage
      ? [
          {
            id: 'state',
            header: t('columns.state'),
            cell: (row: TrainingModuleSummary) => t(`state.${row.state}`),
          },
        ]
      : []),
    {
      id: 'quiz',
      header: t('columns.quiz'),
      cell: (row) =>
        row.questionCount === 0
          ? t('quiz.none')
          : t('quiz.summary', { count: row.questionCount, passMark: row.passMark ?? 0 }),
    },
    {
      id: 'status',
      header: t('columns.myStatus'),
      sortValue: (row) => row.myStatus,
      cell: (row) => (row.required || row.completedAt ? <TrainingStatusBadge status={row.myStatus} /> : '—'),
    },
    {
      id: 'completedAt',
      header: t('columns.completedAt'),
      cell: (row) =>
        row.completedAt ? `${formatDateTimeKst(row.completedAt)} (v${row.completedVersion})` : '—',
    },
    {
      id: 'actions',
      header: t('columns.actions'),
      hideable: false,
      cell: (row) => (
        <div className={styles.actions}>
          {row.myStatus === 'completed' && row.state === 'published' ? (
            <Button variant="secondary" size="sm" onClick={() => void certificate(row.id)}>
              {t('actions.certificate')}
            </Button>
          ) : null}
          {canManage ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setEditing(row.id);
                modals.open(TRAINING_MODULE_MODAL);
              }}
            >
              {t('actions.edit')}
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <ListPage title={t('page.title')}>
      {data?.gatesDataEntry && data.pendingRequired > 0 ? (
        <p className={styles.gateBanner} role="status">
          {t('page.gateBanner', { count: data.pendingRequired })}
        </p>
      ) : null}
      {canManage ? <GateSetting studyId={studyId} value={data?.gatesDataEntry ?? false} /> : null}
      <DataTable<TrainingModuleSummary>
        id="training-modules"
        label={canManage ? t('modules.captionAll') : t('modules.caption')}
        columns={columns}
        rows={data?.modules}
        rowKey={(row) => String(row.id)}
        rowAttributes={(row) => ({ 'data-status': row.myStatus })}
        sorting={{ mode: 'client' }}
        {...tableLoadState(list, t('page.loadFailed'))}
        loadingMessage={t('page.loading')}
        emptyMessage={t('modules.none')}
        summary={data ? t('modules.count', { count: data.modules.length }) : ''}
        actions={
          <>
            {completedAny ? (
              <Button variant="secondary" onClick={() => void record()}>
                {t('actions.record')}
              </Button>
            ) : null}
            {canManage ? (
              <Button
                onClick={() => {
                  setEditing(null);
                  modals.open(TRAINING_MODULE_MODAL);
                }}
              >
                {t('actions.add')}
              </Button>
            ) : null}
          </>
        }
      />
      {selected !== null ? (
        <TrainingReader
          key={selected}
          studyId={studyId}
          moduleId={selected}
          onClose={() => open(null)}
          onCertificate={() => void certificate(selected)}
        />
      ) : null}
      {canManage ? <CompletionMatrix studyId={studyId} /> : null}
      {canManage ? (
        <TrainingModuleDialog key={editing ?? 'new'} studyId={studyId} moduleId={editing} />
      ) : null}
    </ListPage>
  );
}

function GateSetting({ studyId, value }: { studyId: number; value: boolean }) {
  const { t } = useTranslation('training');
  const confirmedChange = useConfirmedChange();
  const settings = useTrainingSettings(studyId);
  async function change(next: boolean) {
    await confirmedChange(
      {
        title: t('gate.title'),
        message: next ? t('gate.turnOn') : t('gate.turnOff'),
        confirmLabel: t('gate.confirm'),
      },
      () => settings.mutateAsync({ gatesDataEntry: next }),
      t('gate.saved'),
    );
  }
  return (
    <div className={`${listStyles.card} ${styles.gate}`}>
      <label className={styles.checkbox}>
        <input
          type="checkbox"
          checked={value}
          disabled={settings.isPending}
          onChange={(event) => void change(event.target.checked)}
        />
        {t('gate.label')}
      </label>
      <p className={styles.muted}>{t('gate.help')}</p>
    </div>
  );
}

type MatrixRow = NonNullable<ReturnType<typeof useTrainingMatrix>['data']>['rows'][number];

function CompletionMatrix({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('training');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const [applied, setApplied] = useState<Omit<MatrixFilters, 'page'>>({ search: '', status: '', size: 20 });
  const [draft, setDraft] = useState(applied);
  const filters = { ...applied, page };
  const matrix = useTrainingMatrix(studyId, filters, true);
  const data = matrix.data;
  const [downloading, setDownloading] = useState(false);

  function apply(next: Omit<MatrixFilters, 'page'>) {
    setApplied(next);
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      params.delete('page');
      return params;
    });
  }

  const columns: DataTableColumn<MatrixRow>[] = [
    {
      id: 'name',
      header: t('matrix.name'),
      hideable: false,
      cell: (row) =>
        row.cells.some((cell) => cell.status === 'completed') ? (
          // The member's certificate of every module completed (issue 51), for the managers.
          <button
            type="button"
            className={styles.linkButton}
            title={t('matrix.recordTitle', { name: row.name })}
            onClick={() =>
              void downloadRecord(studyId, row.userId, language).catch((failure: unknown) =>
                toast(failure instanceof Error ? failure.message : String(failure), 'error'),
              )
            }
          >
            {row.name}
          </button>
        ) : (
          row.name
        ),
    },
    { id: 'roles', header: t('matrix.roles'), cell: (row) => row.roles.join(', ') },
    ...(data?.modules ?? []).map((module, index) => ({
      id: `module-${module.id}`,
      header: `${module.title} (v${module.version})`,
      cell: (row: MatrixRow) => {
        const cell = row.cells[index];
        if (!cell) return '—';
        return (
          <span className={styles.matrixCell}>
            <TrainingStatusBadge status={cell.status} />
            {cell.completedAt ? (
              <span className={styles.muted}>
                {formatDateTimeKst(cell.completedAt)} · v{cell.version}
              </span>
            ) : null}
          </span>
        );
      },
    })),
  ];

  async function download() {
    setDownloading(true);
    try {
      await downloadMatrix(studyId, filters);
    } catch (failure) {
      toast(failure instanceof Error ? failure.message : String(failure), 'error');
    } finally {
      setDownloading(false);
    }
  }

  return (
    <>
      <h2 className={styles.sectionTitle}>{t('matrix.title')}</h2>
      <FilterPanel
        onSubmit={() => apply(draft)}
        onReset={() => {
          const reset = { search: '', status: '' as const, size: applied.size };
          setDraft(reset);
          apply(reset);
        }}
      >
        <FilterChoice<TrainingStatus | ''>
          label={t('matrix.status')}
          choices={['', ...trainingStatuses]}
          value={draft.status}
          optionLabel={(choice) => (choice === '' ? t('matrix.anyStatus') : t(`status.${choice}`))}
          onChange={(status) => setDraft({ ...draft, status })}
        />
        <FilterText
          label={t('matrix.name')}
          value={draft.search}
          onChange={(search) => setDraft({ ...draft, search })}
        />
      </FilterPanel>
      <PagedListTable<MatrixRow>
        id="training-matrix"
        label={t('matrix.caption')}
        columns={columns}
        rows={data?.rows}
        rowKey={(row) => String(row.userId)}
        query={matrix}
        loadFailed={t('page.loadFailed')}
        loadingMessage={t('page.loading')}
        emptyMessage={t('matrix.none')}
        count={(total) => t('matrix.count', { count: total })}
        actions={
          <Button variant="secondary" disabled={downloading} onClick={() => void download()}>
            {t('matrix.download')}
          </Button>
        }
        pageSize={applied.size}
      />
    </>
  );
}
