import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources } from './resources.ts';

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

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: supportedLanguages,
  defaultNS: 'common',
  ns: Object.keys(resources.ko),
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
