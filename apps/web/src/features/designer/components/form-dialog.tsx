import { useTranslation } from 'react-i18next';
import type { FormFields } from '../lib/designer-state.ts';
import { ElementDialog } from './element-dialog.tsx';

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
    <ElementDialog
      name={FORM_DIALOG}
      title={initial ? t('dialog.renameForm') : t('dialog.addForm')}
      initial={initial}
      takenKeys={takenKeys}
      note={initial ? undefined : t('dialog.newFormNote')}
      onApply={onApply}
    />
  );
}
