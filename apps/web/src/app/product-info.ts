// Replaced at build time by Vite `define` (vite.config.ts) from the root package.json, the one place
// the version and release date are kept.
declare const __CDMS_VERSION__: string;
declare const __CDMS_RELEASE_DATE__: string;

export const productVersion: string = __CDMS_VERSION__;
export const productReleaseDate: string = __CDMS_RELEASE_DATE__;
