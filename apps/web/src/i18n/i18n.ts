import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import enLanding from '../locales/en/landing.json';
import enSession from '../locales/en/session.json';
import enUi from '../locales/en/ui.json';
import koAuth from '../locales/ko/auth.json';
import koCommon from '../locales/ko/common.json';
import koErrors from '../locales/ko/errors.json';
import koLanding from '../locales/ko/landing.json';
import koSession from '../locales/ko/session.json';
import koUi from '../locales/ko/ui.json';

export const supportedLanguages = ['ko', 'en'] as const;
export type SupportedLanguage = (typeof supportedLanguages)[number];

/** The user's choice is remembered in the browser; Korean is the default. */
export const LANGUAGE_STORAGE_KEY = 'cdms.language';

function storedLanguage(): SupportedLanguage {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return value === 'en' ? 'en' : 'ko';
  } catch {
    return 'ko'; // storage disabled (private mode): fall back to the default
  }
}

/**
 * The namespaces the first page needs whatever it is (the root providers, the landing page, the
 * error pages), in both languages: part of the entry chunk, ready before the first
 * render. Every other namespace is a chunk of its own, loaded when a component first asks for it
 * (`useTranslation` suspends until then; the router's pages sit in a Suspense boundary).
 */
const startupResources = {
  ko: {
    common: koCommon,
    ui: koUi,
    auth: koAuth,
    session: koSession,
    errors: koErrors,
    landing: koLanding,
  },
  en: {
    common: enCommon,
    ui: enUi,
    auth: enAuth,
    session: enSession,
    errors: enErrors,
    landing: enLanding,
  },
};

/** `taskList` lives in `task-list.json`. */
const fileOf = (namespace: string) => namespace.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

// Every namespace but the bundled ones above (a file both bundled and lazy would become a chunk of
// its own that the entry then waits for).
const localeFiles = import.meta.glob<ResourceKey>(
  [
    '../locales/*/*.json',
    '!../locales/*/common.json',
    '!../locales/*/ui.json',
    '!../locales/*/auth.json',
    '!../locales/*/session.json',
    '!../locales/*/errors.json',
    '!../locales/*/landing.json',
  ],
  { import: 'default' },
);

/** i18next backend: a namespace's JSON is a chunk of the build, imported on first use. */
const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = localeFiles[`../locales/${language}/${fileOf(namespace)}.json`];
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (resources) => callback(null, resources),
      (error: Error) => callback(error, false),
    );
  },
};

void i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: startupResources,
    // The bundled namespaces are there at once; the others come from `lazyLocales`.
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: supportedLanguages,
    defaultNS: 'common',
    ns: Object.keys(startupResources.ko),
    // Synchronous: the first render already has the bundled namespaces.
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes already
    returnNull: false,
  });

document.documentElement.lang = i18n.language;
i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

export function changeLanguage(language: SupportedLanguage): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered, but the page still switches.
  }
  void i18n.changeLanguage(language);
}

export { i18n };
