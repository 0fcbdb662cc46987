import { VISIT_GROUPS, type VisitGroup } from '@cdms/study';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import type { VisitFields } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { type ElementFieldProblems, ElementFields, elementFieldProblems } from './element-fields.tsx';

export const VISIT_DIALOG = 'designer-visit';

/**
 * Adds a visit (key, labels, group; it starts with no forms) or edits one (labels and group). The
 * page opens it by name in the modal stack; its form starts afresh every time it opens.
 */
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
  return (
    <Modal name={VISIT_DIALOG} title={initial ? t('dialog.editVisit') : t('dialog.addVisit')} width="sm">
      <VisitForm initial={initial} takenKeys={takenKeys} onApply={onApply} />
    </Modal>
  );
}

function VisitForm({
  initial,
  takenKeys,
  onApply,
}: {
  initial: VisitFields | null;
  takenKeys: readonly string[];
  onApply: (visit: VisitFields) => void;
}) {
  const { t } = useTranslation('designer');
  const { close } = useModalStack();
  const groupId = useId();
  const [values, setValues] = useState({
    key: initial?.key ?? '',
    label: initial?.label ?? { ko: '', en: '' },
  });
  const [group, setGroup] = useState<VisitGroup>(initial?.group ?? 'follow_up');
  const [problems, setProblems] = useState<ElementFieldProblems>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = elementFieldProblems(values, initial ? null : takenKeys, t);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onApply({ key: values.key, label: values.label, group });
    close(VISIT_DIALOG);
  }

  return (
    <form className={styles.dialogForm} onSubmit={submit} noValidate>
      <ElementFields values={values} onChange={setValues} problems={problems} keyEditable={!initial} />
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
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => close(VISIT_DIALOG)}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit">{t('dialog.apply')}</Button>
      </div>
    </form>
  );
}
