import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useToast } from '../../../components/toast.tsx';
import { saveBlob } from '../../../lib/api-client.ts';
import styles from './recovery-codes.module.css';

/**
 * The one-time recovery codes, shown once (the server keeps only their hashes): a warning to store
 * them now, the codes, copy and download (.txt) buttons, and the button that leaves this view.
 */
export function RecoveryCodes({
  codes,
  doneLabel,
  onDone,
}: {
  codes: string[];
  doneLabel: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const text = `${t('recoveryCodes.fileHeading')}\n\n${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast(t('recoveryCodes.copied'), 'success');
    } catch {
      toast(t('recoveryCodes.copyFailed'), 'error');
    }
  }

  function download() {
    saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'cdms-recovery-codes.txt');
  }

  return (
    <div className={styles.panel}>
      <p className={styles.warning} role="alert">
        {t('recoveryCodes.storeNow')}
      </p>
      <ol className={styles.codes} data-testid="recovery-codes" aria-label={t('recoveryCodes.listLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void copy()}>
          {t('recoveryCodes.copy')}
        </Button>
        <Button variant="secondary" onClick={download}>
          {t('recoveryCodes.download')}
        </Button>
      </div>
      <Button onClick={onDone}>{doneLabel}</Button>
    </div>
  );
}
