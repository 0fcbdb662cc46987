import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import enLanding from '../locales/en/landing.json';
import koCommon from '../locales/ko/common.json';
import koErrors from '../locales/ko/errors.json';
import koLanding from '../locales/ko/landing.json';

/** Translation resources, one JSON file per namespace and language. Both languages are complete. */
export const resources = {
  ko: { common: koCommon, landing: koLanding, errors: koErrors },
  en: { common: enCommon, landing: enLanding, errors: enErrors },
} as const;
