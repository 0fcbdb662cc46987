import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
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
 * error pages), in Korean: part of the entry chunk, ready before the first render. Their English
 * copies are a chunk of their own (english-startup.ts). Every other namespace is a chunk of its own
 * per language, loaded when a component first asks for it (`useTranslation` suspends until then;
 * the router's pages sit in a Suspense boundary).
 *
 * English is Korean's fallback: a key missing in Korean shows the English text. The build puts that
 * text in the Korean namespace itself (build-tools/korean-with-english-fallback.ts), so Korean needs
 * no English namespace at run time (`fallbackLng` below). English namespaces still load beside the
 * Korean ones a signed-in page uses (`lazyLocales`): a form or a printout may be shown in English
 * (`getFixedT('en', …)`) on a Korean page.
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
};
type StartupNamespace = keyof typeof startupResources.ko;

function isStartupNamespace(namespace: string): namespace is StartupNamespace {
  return namespace in startupResources.ko;
}

/** `taskList` lives in `task-list.json`. */
const fileOf = (namespace: string) => namespace.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

// Every namespace but the startup ones above (a file both bundled and lazy would become a chunk of
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

let englishStartup: Promise<void> | null = null;

/** The English startup namespaces, added to i18next once (the same promise for every caller). */
function loadEnglishStartup(): Promise<void> {
  englishStartup ??= import('./english-startup.ts').then((module) => {
    for (const [namespace, resources] of Object.entries(module.englishStartup)) {
      i18n.addResourceBundle('en', namespace, resources, true, false);
    }
  });
  return englishStartup;
}

function loadLocale(language: string, namespace: string): Promise<ResourceKey> {
  if (language === 'en' && isStartupNamespace(namespace)) {
    return loadEnglishStartup().then(() => i18n.getResourceBundle('en', namespace) as ResourceKey);
  }
  const load = localeFiles[`../locales/${language}/${fileOf(namespace)}.json`];
  if (!load) return Promise.reject(new Error(`No translations for ${language}/${namespace}`));
  return load();
}

/**
 * i18next backend: a namespace's JSON is a chunk of the build, imported on first use. A Korean
 * namespace comes with its English copy and the English startup namespaces, added before it is
 * ready, so that a part of the page shown in English (above) has its text.
 */
const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const english =
      language === 'en'
        ? Promise.resolve()
        : Promise.all([
            loadEnglishStartup(),
            loadLocale('en', namespace).then((resources) =>
              i18n.addResourceBundle('en', namespace, resources, true, false),
            ),
          ]);
    Promise.all([loadLocale(language, namespace), english]).then(
      ([resources]) => callback(null, resources),
      (error: Error) => callback(error, false),
    );
  },
};

/**
 * Resolves once the first language's startup namespaces are there: at once for Korean, after the
 * English startup chunk for a user who chose English (main.tsx renders then).
 */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: startupResources,
    // The bundled namespaces are there at once; the others come from `lazyLocales`.
    partialBundledLanguages: true,
    lng: storedLanguage(),
    // Korean carries its English fallback text (above): no English namespace is needed for it.
    fallbackLng: { ko: [], default: ['en'] },
    supportedLngs: supportedLanguages,
    defaultNS: 'common',
    ns: Object.keys(startupResources.ko),
    // Synchronous for Korean: the first render already has the bundled namespaces.
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
