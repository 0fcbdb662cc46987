import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTwoFactorSetting, useUpdateTwoFactorSetting } from '../api/two-factor-setting.ts';
import styles from './admin-ui.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ServerError } from './server-error.tsx';

/**
 * The system setting "two-factor sign-in required for ADMIN and DM", on the users page. A change is
 * confirmed first: turning it on holds every such user without a second factor (the administrator
 * too) to enrolment at their next request.
 */
export function TwoFactorSettingPanel() {
  const { t } = useTranslation('admin');
  const setting = useTwoFactorSetting();
  const update = useUpdateTwoFactorSetting();
  const [asking, setAsking] = useState<boolean | null>(null);
  const required = setting.data?.requiredForAdminAndDm ?? false;

  return (
    <div className={styles.settingPanel}>
      <label className={styles.checkboxLabel}>
        <input
          type="checkbox"
          checked={required}
          disabled={!setting.data || update.isPending}
          onChange={(event) => {
            update.reset();
            setAsking(event.target.checked);
          }}
        />
        <span>
          <strong>{t('twoFactorSetting.label')}</strong>
          <span className={styles.hint}>{t('twoFactorSetting.hint')}</span>
        </span>
      </label>
      <ServerError error={setting.error} />
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={asking ? t('twoFactorSetting.onTitle') : t('twoFactorSetting.offTitle')}
        description={asking ? t('twoFactorSetting.onDescription') : t('twoFactorSetting.offDescription')}
        confirmLabel={asking ? t('twoFactorSetting.turnOn') : t('twoFactorSetting.turnOff')}
        tone={asking ? 'primary' : 'danger'}
        pending={update.isPending}
        error={update.error}
        onConfirm={() => {
          if (asking === null) return;
          update.mutate({ requiredForAdminAndDm: asking }, { onSuccess: () => setAsking(null) });
        }}
      />
    </div>
  );
}
