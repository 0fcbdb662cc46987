/**
 * Names of the auth feature's modals in the modal stack, apart from the components that draw them:
 * the landing page opens them before their code has loaded.
 */
export const LOGIN_MODAL = 'login';
export const ACCOUNT_MODAL = 'account';
