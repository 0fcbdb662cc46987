import type { FormDefinition, LocalizedText, StudyDefinition, VisitDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { type DesignerEdit, labelIn } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { DragGrip } from './drag-grip.tsx';
import { Markers } from './markers.tsx';
import { useDragReorder } from './use-drag-reorder.ts';

interface FormRow {
  form: FormDefinition;
  index: number;
}

export interface ScheduleGridProps {
  definition: StudyDefinition;
  readOnly: boolean;
  /** The visits and forms (by place) the last refused save found problems in. */
  problems: { visits: ReadonlySet<number>; forms: ReadonlySet<number> };
  onEdit: (edit: DesignerEdit) => void;
  onEditVisit: (index: number) => void;
  onRemoveVisit: (index: number) => void;
  onRenameForm: (index: number) => void;
  onRemoveForm: (index: number) => void;
  /** Opens the form's editor (its sections and items), read-only in a live study. */
  onOpenForm: (index: number) => void;
}

/** The element id of a visit's or form's header, which a problem in the list leads to. */
export const headerId = (kind: 'visit' | 'form', index: number) => `designer-${kind}-${index}`;

/**
 * The schedule: visits as columns in order, forms as rows in order, and in each cell a checkbox
 * saying whether the visit offers the form. A real table (the shared `DataTable`): each checkbox is
 * named "<form> at <visit>", and the headers hold the reorder, edit and remove buttons.
 */
export function ScheduleGrid({
  definition,
  readOnly,
  problems,
  onEdit,
  onEditVisit,
  onRemoveVisit,
  onRenameForm,
  onRemoveForm,
  onOpenForm,
}: ScheduleGridProps) {
  const { t, i18n } = useTranslation('designer');
  const name = (label: LocalizedText) => labelIn(label, i18n.language);
  const { visits, forms } = definition;

  /**
   * A reorder button keeps the focus where the element went, so pressing it again moves it further;
   * at the end of the line the focus goes to the button pointing back.
   */
  function moveAndFollow(
    edit: Extract<DesignerEdit, { type: 'moveVisit' | 'moveForm' }>,
    kind: 'visit' | 'form',
    count: number,
  ) {
    onEdit(edit);
    const target = edit.to;
    const by = Math.sign(edit.to - edit.index);
    const atEnd = target === 0 || target === count - 1;
    const direction = atEnd ? -by : by;
    requestAnimationFrame(() =>
      document.getElementById(`${headerId(kind, target)}-move${direction < 0 ? 'Back' : 'On'}`)?.focus(),
    );
  }

  // The same moves by mouse: a header's grip dropped on another header of its kind.
  const samePlace = (a: number, b: number) => a === b;
  const formDrag = useDragReorder<number>({
    samePlace,
    onDrop: (index, to) => onEdit({ type: 'moveForm', index, to }),
  });
  const visitDrag = useDragReorder<number>({
    samePlace,
    onDrop: (index, to) => onEdit({ type: 'moveVisit', index, to }),
  });

  const formColumn: DataTableColumn<FormRow> = {
    id: 'form',
    header: t('grid.formColumn'),
    rowHeader: true,
    hideable: false,
    className: styles.formCell,
    cell: ({ form, index }) => (
      <div
        id={headerId('form', index)}
        tabIndex={-1}
        className={styles.header}
        data-problem={problems.forms.has(index) || undefined}
        {...(readOnly ? {} : formDrag.dropProps(index))}
      >
        {readOnly ? null : <DragGrip title={t('grid.drag')} {...formDrag.dragProps(index)} />}
        <span className={styles.headerLabel}>{name(form.label)}</span>
        <span className={styles.headerMeta}>{t('grid.key', { key: form.key })}</span>
        <Markers label={form.label} problem={problems.forms.has(index)} />
        <Button
          variant="secondary"
          size="sm"
          aria-label={t('grid.openFormOf', { name: name(form.label) })}
          onClick={() => onOpenForm(index)}
        >
          {t('grid.openForm')}
        </Button>
        {readOnly ? null : (
          <span className={styles.headerActions}>
            <MoveButton
              id={`${headerId('form', index)}-moveBack`}
              label={t('grid.moveUp', { name: name(form.label) })}
              arrow="↑"
              disabled={index === 0}
              onClick={() => moveAndFollow({ type: 'moveForm', index, to: index - 1 }, 'form', forms.length)}
            />
            <MoveButton
              id={`${headerId('form', index)}-moveOn`}
              label={t('grid.moveDown', { name: name(form.label) })}
              arrow="↓"
              disabled={index === forms.length - 1}
              onClick={() => moveAndFollow({ type: 'moveForm', index, to: index + 1 }, 'form', forms.length)}
            />
            <Button variant="ghost" size="sm" onClick={() => onRenameForm(index)}>
              <span aria-hidden="true">✎</span>
              <span className={styles.visuallyHidden}>
                {t('grid.renameForm', { name: name(form.label) })}
              </span>
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={forms.length <= 1}
              onClick={() => onRemoveForm(index)}
            >
              <span aria-hidden="true">×</span>
              <span className={styles.visuallyHidden}>
                {t('grid.removeForm', { name: name(form.label) })}
              </span>
            </Button>
          </span>
        )}
      </div>
    ),
  };

  const visitColumns = visits.map(
    (visit, visitIndex): DataTableColumn<FormRow> => ({
      id: `visit-${visit.key}`,
      header: name(visit.label),
      hideable: false,
      className: styles.checkCell,
      headerContent: (
        <VisitHeader
          visit={visit}
          index={visitIndex}
          count={visits.length}
          readOnly={readOnly}
          problem={problems.visits.has(visitIndex)}
          onMove={(by) =>
            moveAndFollow(
              { type: 'moveVisit', index: visitIndex, to: visitIndex + by },
              'visit',
              visits.length,
            )
          }
          drag={visitDrag}
          onEditVisit={onEditVisit}
          onRemoveVisit={onRemoveVisit}
        />
      ),
      cell: ({ form }) => (
        <input
          type="checkbox"
          className={styles.checkbox}
          checked={visit.forms.includes(form.key)}
          disabled={readOnly}
          aria-label={t('grid.cell', { form: name(form.label), visit: name(visit.label) })}
          onChange={() => onEdit({ type: 'toggleCell', visitIndex, formKey: form.key })}
        />
      ),
    }),
  );

  return (
    <DataTable<FormRow>
      id="designer-schedule"
      label={t('grid.caption')}
      columns={[formColumn, ...visitColumns]}
      rows={forms.map((form, index) => ({ form, index }))}
      rowKey={({ form }) => form.key}
    />
  );
}

function VisitHeader({
  visit,
  index,
  count,
  readOnly,
  problem,
  onMove,
  drag,
  onEditVisit,
  onRemoveVisit,
}: {
  visit: VisitDefinition;
  index: number;
  count: number;
  readOnly: boolean;
  problem: boolean;
  onMove: (by: -1 | 1) => void;
  drag: ReturnType<typeof useDragReorder<number>>;
  onEditVisit: (index: number) => void;
  onRemoveVisit: (index: number) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const name = labelIn(visit.label, i18n.language);
  const window = visit.window;
  const id = headerId('visit', index);
  return (
    <div
      id={id}
      tabIndex={-1}
      className={styles.header}
      data-problem={problem || undefined}
      {...(readOnly ? {} : drag.dropProps(index))}
    >
      {readOnly ? null : <DragGrip title={t('grid.drag')} {...drag.dragProps(index)} />}
      <span className={styles.headerLabel}>{name}</span>
      <span className={styles.headerMeta}>
        {t('grid.key', { key: visit.key })} · {t(`groups.${visit.group}`)}
      </span>
      {window ? (
        <span className={styles.headerMeta}>
          {t('grid.window', {
            anchor: window.anchorVisit,
            offset: window.offsetDays >= 0 ? `+${window.offsetDays}` : String(window.offsetDays),
            minus: window.minusDays,
            plus: window.plusDays,
          })}
        </span>
      ) : null}
      <Markers label={visit.label} problem={problem} />
      {readOnly ? null : (
        <span className={styles.headerActions}>
          <MoveButton
            id={`${id}-moveBack`}
            label={t('grid.moveLeft', { name })}
            arrow="←"
            disabled={index === 0}
            onClick={() => onMove(-1)}
          />
          <MoveButton
            id={`${id}-moveOn`}
            label={t('grid.moveRight', { name })}
            arrow="→"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          />
          <Button variant="ghost" size="sm" onClick={() => onEditVisit(index)}>
            <span aria-hidden="true">✎</span>
            <span className={styles.visuallyHidden}>{t('grid.editVisit', { name })}</span>
          </Button>
          <Button variant="ghost" size="sm" disabled={count <= 1} onClick={() => onRemoveVisit(index)}>
            <span aria-hidden="true">×</span>
            <span className={styles.visuallyHidden}>{t('grid.removeVisit', { name })}</span>
          </Button>
        </span>
      )}
    </div>
  );
}

function MoveButton({
  id,
  label,
  arrow,
  disabled,
  onClick,
}: {
  id: string;
  label: string;
  arrow: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button id={id} variant="ghost" size="sm" disabled={disabled} onClick={onClick}>
      <span aria-hidden="true">{arrow}</span>
      <span className={styles.visuallyHidden}>{label}</span>
    </Button>
  );
}
