import { VISIT_GROUPS, type VisitGroup } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VisitFields } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { ElementDialog } from './element-dialog.tsx';

export const VISIT_DIALOG = 'designer-visit';

/** Adds a visit (key, labels, group; it starts with no forms) or edits one (labels and group). */
export function VisitDialog({
  initial,
  takenKeys,
  onApply,
}: {
  /** The visit being edited; null to add one. */
  initial: VisitFields | null;
  takenKeys: readonly string[];
  onApply: (visit: VisitFields) => void;
}) {
  const { t } = useTranslation('designer');
  const groupId = useId();
  const [group, setGroup] = useState<VisitGroup>(initial?.group ?? 'follow_up');
  return (
    <ElementDialog
      name={VISIT_DIALOG}
      title={initial ? t('dialog.editVisit') : t('dialog.addVisit')}
      initial={initial}
      takenKeys={takenKeys}
      onApply={(values) => onApply({ key: values.key, label: values.label, group })}
    >
      <div className={styles.selectField}>
        <label htmlFor={groupId}>{t('dialog.group')}</label>
        <select id={groupId} value={group} onChange={(event) => setGroup(event.target.value as VisitGroup)}>
          {VISIT_GROUPS.map((option) => (
            <option key={option} value={option}>
              {t(`groups.${option}`)}
            </option>
          ))}
        </select>
      </div>
    </ElementDialog>
  );
}
