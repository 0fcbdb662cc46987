import enAdmin from '../locales/en/admin.json';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enCrf from '../locales/en/crf.json';
import enErrors from '../locales/en/errors.json';
import enLanding from '../locales/en/landing.json';
import enSession from '../locales/en/session.json';
import enShell from '../locales/en/shell.json';
import enUi from '../locales/en/ui.json';
import koAdmin from '../locales/ko/admin.json';
import koAuth from '../locales/ko/auth.json';
import koCommon from '../locales/ko/common.json';
import koCrf from '../locales/ko/crf.json';
import koErrors from '../locales/ko/errors.json';
import koLanding from '../locales/ko/landing.json';
import koSession from '../locales/ko/session.json';
import koShell from '../locales/ko/shell.json';
import koUi from '../locales/ko/ui.json';

/** Translation resources, one JSON file per namespace and language. Both languages are complete. */
export const resources = {
  ko: {
    admin: koAdmin,
    common: koCommon,
    landing: koLanding,
    errors: koErrors,
    auth: koAuth,
    session: koSession,
    shell: koShell,
    ui: koUi,
    crf: koCrf,
  },
  en: {
    admin: enAdmin,
    common: enCommon,
    landing: enLanding,
    errors: enErrors,
    auth: enAuth,
    session: enSession,
    shell: enShell,
    ui: enUi,
    crf: enCrf,
  },
} as const;
