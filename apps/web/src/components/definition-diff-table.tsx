import type { DefinitionDiffLine, DiffLineKindName } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table/data-table.tsx';
import styles from './definition-diff-table.module.css';

/** The sign beside each kind's word: the kind reads without its colour (and in a black-and-white print). */
const KIND_SIGNS: Record<DiffLineKindName, string> = { added: '+', removed: '−', changed: '~', moved: '↕' };

/** A difference's kind as a sign and a word, shaded (the design versions' counts use it as headers). */
export function DiffKind({ kind }: { kind: DiffLineKindName }) {
  const { t } = useTranslation('designVersions');
  return (
    <span className={styles.kind} data-kind={kind}>
      <span aria-hidden="true" className={styles.sign}>
        {KIND_SIGNS[kind]}
      </span>
      {t(`kinds.${kind}`)}
    </span>
  );
}

type LineRow = DefinitionDiffLine & { index: number };

/**
 * Every difference between two study definitions as lines (packages/study `describeDiff`): its kind,
 * the part of the definition it is in, and what changed, old → new. The version comparison and the
 * design import's preview both show them so.
 */
export function DefinitionDiffTable({
  id,
  label,
  lines,
  busy = false,
  error = null,
  emptyMessage,
}: {
  id: string;
  label: string;
  lines: readonly DefinitionDiffLine[] | undefined;
  busy?: boolean;
  error?: DataTableProps<LineRow>['error'];
  emptyMessage: string;
}) {
  const { t } = useTranslation('designVersions');
  const columns: DataTableColumn<LineRow>[] = [
    {
      id: 'kind',
      header: t('lines.kind'),
      cell: (row) => <DiffKind kind={row.kind} />,
      hideable: false,
      className: styles.kindColumn,
    },
    {
      id: 'part',
      header: t('lines.part'),
      cell: (row) => t(`parts.${row.path.split('/')[0]}`),
      hideable: false,
      className: styles.partColumn,
    },
    { id: 'text', header: t('lines.text'), cell: (row) => row.text, wrap: true, hideable: false },
  ];
  return (
    <DataTable
      id={id}
      label={label}
      columns={columns}
      rows={lines?.map((line, index) => ({ ...line, index }))}
      rowKey={(row) => String(row.index)}
      rowAttributes={(row) => ({ 'data-kind': row.kind })}
      busy={busy}
      error={error}
      emptyMessage={emptyMessage}
      loadingMessage={t('page.loading')}
      fit
      pager={null}
    />
  );
}
