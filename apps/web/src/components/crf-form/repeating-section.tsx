import type { SectionDefinition } from '@cdms/study';
import { memo } from 'react';
import { useAlert } from '../alert-dialog.tsx';
import { Button } from '../button.tsx';
import styles from './crf-form.module.css';
import { useCrfForm, useCrfText, useRowCount, useSectionView } from './crf-form-context.tsx';
import { CrfItem } from './crf-item.tsx';
import { SectionFrame } from './section-frame.tsx';
import { rowHasData } from './subject-store.ts';

/**
 * A repeating group (medical history, adverse events, drugs…): numbered rows, each a small card of the
 * group's items, an add button, and a remove button per row that asks first when the row holds data.
 */
export const RepeatingSection = memo(function RepeatingSection({ section }: { section: SectionDefinition }) {
  const t = useCrfText();
  const { subjectStore, visitKey, formKey, readOnly } = useCrfForm();
  const groupKey = section.repeating?.key ?? section.key;
  const rowCount = useRowCount(groupKey);
  const view = useSectionView(section.key);
  const maxRows = section.repeating?.maxRows;
  const locked = readOnly || (view?.notDone ?? false);
  const full = maxRows !== undefined && rowCount >= maxRows;

  const addButton = (
    <Button
      size="sm"
      variant="secondary"
      disabled={locked || full}
      title={full ? t('rows.max', { max: maxRows }) : undefined}
      onClick={() => subjectStore.addRow(visitKey, formKey, groupKey)}
    >
      + {t('rows.add')}
    </Button>
  );

  return (
    <SectionFrame section={section} actions={addButton}>
      {rowCount === 0 ? (
        <p className={view?.rowsMissing ? `${styles.noRows} ${styles.noRowsMissing}` : styles.noRows}>
          {view?.rowsMissing ? t('rows.required') : t('rows.empty')}
        </p>
      ) : (
        <ol className={styles.rows}>
          {Array.from({ length: rowCount }, (_, rowIndex) => (
            // Rows read their values by index, so the index is the right key: after a removal the rows
            // below show the values that moved up.
            <RepeatingRow
              // biome-ignore lint/suspicious/noArrayIndexKey: see the comment above.
              key={rowIndex}
              section={section}
              groupKey={groupKey}
              rowIndex={rowIndex}
              locked={locked}
            />
          ))}
        </ol>
      )}
    </SectionFrame>
  );
});

interface RowProps {
  section: SectionDefinition;
  groupKey: string;
  rowIndex: number;
  locked: boolean;
}

const RepeatingRow = memo(function RepeatingRow({ section, groupKey, rowIndex, locked }: RowProps) {
  const t = useCrfText();
  const { subjectStore, visitKey, formKey } = useCrfForm();
  const { confirm } = useAlert();
  const number = rowIndex + 1;

  const remove = async () => {
    const row = subjectStore.getRows(visitKey, formKey, groupKey)[rowIndex];
    if (rowHasData(row)) {
      const confirmed = await confirm({
        title: t('rows.confirmTitle'),
        message: t('rows.confirmMessage', { number }),
        confirmLabel: t('rows.remove'),
      });
      if (!confirmed) return;
    }
    subjectStore.removeRow(visitKey, formKey, groupKey, rowIndex);
  };

  return (
    <li className={styles.row} data-row={rowIndex}>
      <div className={styles.rowHeader}>
        <span className={styles.rowNumber}>{t('rows.rowLabel', { number })}</span>
        <Button
          size="sm"
          variant="ghost"
          disabled={locked}
          aria-label={t('rows.removeLabel', { number })}
          onClick={() => void remove()}
        >
          {t('rows.remove')}
        </Button>
      </div>
      <div className={styles.rowBody}>
        {section.items.map((item) => (
          <CrfItem key={item.key} item={item} groupKey={groupKey} rowIndex={rowIndex} />
        ))}
      </div>
    </li>
  );
});
