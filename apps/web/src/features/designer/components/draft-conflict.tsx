import type { DesignDraftConflict } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { DefinitionDiffTable } from '../../../components/definition-diff-table.tsx';
import styles from './designer.module.css';

/**
 * Someone saved the draft since the revision this designer was editing (409 `design_draft_changed`):
 * who, and how their draft differs from this one. Nothing is saved until the designer chooses: take
 * their draft (this one's edits are listed here to make again), or save this one over theirs.
 */
export function DraftConflict({
  message,
  conflict,
  onTakeTheirs,
  onKeepMine,
}: {
  message: string;
  conflict: DesignDraftConflict;
  onTakeTheirs: () => void;
  onKeepMine: () => void;
}) {
  const { t } = useTranslation('designer');
  return (
    <section className={styles.conflict} role="alert" aria-label={t('conflict.title')}>
      <h2 className={styles.problemsTitle}>{t('conflict.title')}</h2>
      <p>{message}</p>
      <DefinitionDiffTable
        id="designer-conflict"
        label={t('conflict.linesLabel', { name: conflict.savedBy.name })}
        lines={conflict.lines}
        emptyMessage={conflict.lineCount === null ? t('conflict.notTold') : t('conflict.same')}
      />
      {conflict.lineCount !== null && conflict.lineCount > conflict.lines.length ? (
        <p className={styles.hint}>
          {t('changes.more', { count: conflict.lineCount - conflict.lines.length })}
        </p>
      ) : null}
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={onTakeTheirs}>
          {t('conflict.takeTheirs', { name: conflict.savedBy.name })}
        </Button>
        <Button onClick={onKeepMine}>{t('conflict.keepMine')}</Button>
      </div>
    </section>
  );
}
