/**
 * Names of the auth feature's modals in the modal stack, apart from the components that draw them:
 * the landing page opens them before their code has loaded.
 */
export const LOGIN_MODAL = 'login';
export const ACCOUNT_MODAL = 'account';
export const CHANGE_PASSWORD_MODAL = 'change-password';
export const SECOND_FACTOR_MODAL = 'second-factor';
export const NOTIFICATION_PREFERENCES_MODAL = 'notification-preferences';
