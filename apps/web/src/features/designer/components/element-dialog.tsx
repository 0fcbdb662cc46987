import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import styles from './designer.module.css';
import {
  type ElementFieldProblems,
  ElementFields,
  type ElementFieldValues,
  elementFieldProblems,
} from './element-fields.tsx';

/** What the dialog's form takes: everything the dialog does but its title. */
interface ElementFormProps {
  /** The dialog's name in the modal stack (closed once the values are applied). */
  name: string;
  /** The element being edited; null to add one. */
  initial: ElementFieldValues | null;
  takenKeys: readonly string[];
  note?: string | undefined;
  children?: ReactNode;
  /** What else the dialog checks before applying (its own fields' problems, which it shows): false stops. */
  beforeApply?: () => boolean;
  onApply: (values: ElementFieldValues) => void;
}

/**
 * The dialog that adds or edits a visit or a form: its key (new elements only) and labels, checked
 * before they are applied, with what else the element asks in `children` (a visit's group) and a note
 * under the fields. The page opens it by name in the modal stack and mounts it afresh every time.
 */
export function ElementDialog({ title, ...form }: ElementFormProps & { title: string }) {
  return (
    <Modal name={form.name} title={title} width="sm">
      <ElementForm {...form} />
    </Modal>
  );
}

function ElementForm({ name, initial, takenKeys, note, children, beforeApply, onApply }: ElementFormProps) {
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
    const othersFine = beforeApply ? beforeApply() : true;
    if (Object.keys(found).length > 0 || !othersFine) return;
    onApply(values);
    close(name);
  }

  return (
    <form className={styles.dialogForm} onSubmit={submit} noValidate>
      <ElementFields values={values} onChange={setValues} problems={problems} keyEditable={!initial} />
      {note ? <p className={styles.hint}>{note}</p> : null}
      {children}
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => close(name)}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit">{t('dialog.apply')}</Button>
      </div>
    </form>
  );
}
