import { Popover } from 'radix-ui';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../button.tsx';
import styles from './data-table.module.css';

export interface ColumnChoice {
  id: string;
  label: string;
  visible: boolean;
  toggle: (visible: boolean) => void;
}

/**
 * The table's "columns" menu: a checkbox per column that may be hidden. The last visible column
 * cannot be unticked (a table of no columns says nothing); "show all" undoes every choice.
 */
export function ColumnsMenu({
  columns,
  lastVisible,
  onShowAll,
}: {
  columns: readonly ColumnChoice[];
  lastVisible: boolean;
  onShowAll: () => void;
}) {
  const { t } = useTranslation('ui');
  const titleId = useId();
  const hiddenCount = columns.filter((column) => !column.visible).length;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="secondary">
          {hiddenCount > 0 ? t('table.columnsHidden', { count: hiddenCount }) : t('table.columns')} ▾
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.menu} align="end" sideOffset={4} aria-labelledby={titleId}>
          <fieldset className={styles.menuFields}>
            <legend id={titleId} className={styles.menuTitle}>
              {t('table.columnsTitle')}
            </legend>
            {columns.map((column) => (
              <label key={column.id} className={styles.menuItem}>
                <input
                  type="checkbox"
                  checked={column.visible}
                  disabled={column.visible && lastVisible}
                  onChange={(event) => column.toggle(event.target.checked)}
                />
                {column.label}
              </label>
            ))}
          </fieldset>
          <Button variant="ghost" size="sm" disabled={hiddenCount === 0} onClick={onShowAll}>
            {t('table.showAllColumns')}
          </Button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
