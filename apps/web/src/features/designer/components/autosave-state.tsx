import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import styles from './designer.module.css';
import type { AutosaveStatus } from './use-draft-autosave.ts';

/** Where the draft stands, in the toolbar: saved (which revision, when), saving, waiting, offline. */
export function AutosaveState({ status }: { status: AutosaveStatus }) {
  const { t } = useTranslation('designer');
  const text =
    status.kind === 'saved'
      ? status.revision === 0
        ? t('autosave.nothingYet')
        : t('autosave.saved', { revision: status.revision, time: formatDateTimeKst(status.at) })
      : status.kind === 'refused'
        ? t('autosave.refused', { message: status.message })
        : t(`autosave.${status.kind}`);
  return (
    <span className={styles.saveState} role="status" data-state={status.kind}>
      {text}
    </span>
  );
}
