import auth from '../locales/en/auth.json';
import common from '../locales/en/common.json';
import errors from '../locales/en/errors.json';
import landing from '../locales/en/landing.json';
import session from '../locales/en/session.json';
import ui from '../locales/en/ui.json';

/**
 * The English copies of the startup namespaces (i18n.ts), one chunk loaded on demand: before the
 * first render for a user who chose English, with the first namespace a signed-in page loads
 * otherwise (forms may be shown in English), and on a switch to English. A Korean visitor of the
 * landing page never loads it: the Korean namespaces carry English for any key they lack.
 */
export const englishStartup = { common, ui, auth, session, errors, landing };
