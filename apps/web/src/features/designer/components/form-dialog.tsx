import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import type { FormFields } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { type ElementFieldProblems, ElementFields, elementFieldProblems } from './element-fields.tsx';

export const FORM_DIALOG = 'designer-form';

/** Adds a form (key and labels; it starts with one empty section) or renames one (its labels). */
export function FormDialog({
  initial,
  takenKeys,
  onApply,
}: {
  /** The form being renamed; null to add one. */
  initial: FormFields | null;
  takenKeys: readonly string[];
  onApply: (form: FormFields) => void;
}) {
  const { t } = useTranslation('designer');
  return (
    <Modal name={FORM_DIALOG} title={initial ? t('dialog.renameForm') : t('dialog.addForm')} width="sm">
      <FormFieldsForm initial={initial} takenKeys={takenKeys} onApply={onApply} />
    </Modal>
  );
}

function FormFieldsForm({
  initial,
  takenKeys,
  onApply,
}: {
  initial: FormFields | null;
  takenKeys: readonly string[];
  onApply: (form: FormFields) => void;
}) {
  const { t } = useTranslation('designer');
  const { close } = useModalStack();
  const [values, setValues] = useState({
    key: initial?.key ?? '',
    label: initial?.label ?? { ko: '', en: '' },
  });
  const [problems, setProblems] = useState<ElementFieldProblems>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = elementFieldProblems(values, initial ? null : takenKeys, t);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onApply(values);
    close(FORM_DIALOG);
  }

  return (
    <form className={styles.dialogForm} onSubmit={submit} noValidate>
      <ElementFields values={values} onChange={setValues} problems={problems} keyEditable={!initial} />
      {initial ? null : <p className={styles.hint}>{t('dialog.newFormNote')}</p>}
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => close(FORM_DIALOG)}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit">{t('dialog.apply')}</Button>
      </div>
    </form>
  );
}
