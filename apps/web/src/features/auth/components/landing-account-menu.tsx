import type { MeResponse } from '@cdms/contract';
import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { AccountDetails } from './account-details.tsx';
import { useAuth } from './auth-provider.tsx';
import { ChangePasswordDialog } from './change-password-dialog.tsx';
import styles from './landing-account.module.css';
import { ACCOUNT_MODAL, CHANGE_PASSWORD_MODAL } from './modal-names.ts';

/** The signed-in user's menu at the top right of the landing page: settings and logout (spec §2). */
export function LandingAccountMenu({ me }: { me: MeResponse }) {
  const { t } = useTranslation('auth');
  const { signOut } = useAuth();
  const modals = useModalStack();
  return (
    <>
      {/* Not modal: a modal menu would fight the dialog it opens over focus and pointer events. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={styles.trigger}>
          <span className={styles.avatar} aria-hidden="true">
            {me.user.name.slice(0, 1)}
          </span>
          <span>{t('menu.greeting', { name: me.user.name })}</span>
          <span aria-hidden="true" className={styles.caret}>
            ▾
          </span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={styles.menu} align="end" sideOffset={8}>
            <DropdownMenu.Label className={styles.menuLabel}>
              <strong>{me.user.name}</strong>
              <span>{me.user.email}</span>
            </DropdownMenu.Label>
            <DropdownMenu.Separator className={styles.separator} />
            <DropdownMenu.Item className={styles.item} onSelect={() => modals.open(ACCOUNT_MODAL)}>
              {t('menu.settings')}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={styles.item} onSelect={() => void signOut()}>
              {t('menu.logout')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Modal name={ACCOUNT_MODAL} title={t('account.title')}>
        <AccountDetails me={me} />
        <div className={styles.dialogActions}>
          <Button variant="secondary" onClick={() => modals.open(CHANGE_PASSWORD_MODAL)}>
            {t('password.change')}
          </Button>
          <Button variant="secondary" onClick={() => void signOut()}>
            {t('menu.logout')}
          </Button>
        </div>
      </Modal>
      <ChangePasswordDialog email={me.user.email} />
    </>
  );
}
