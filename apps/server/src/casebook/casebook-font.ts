import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Noto Sans KR (SIL OFL) from the npm package @expo-google-fonts/noto-sans-kr, which ships the whole
 * TrueType files: one file holds Hangul, Latin and the signs the casebook prints, so pdfkit embeds
 * and subsets it as one font and Korean is never drawn as boxes. Read once per process (≈6 MB each).
 */

const require = createRequire(import.meta.url);
const files = {
  regular: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
} as const;

let loaded: { regular: Buffer; bold: Buffer } | undefined;

export function casebookFonts(): { regular: Buffer; bold: Buffer } {
  loaded ??= {
    regular: fs.readFileSync(require.resolve(files.regular)),
    bold: fs.readFileSync(require.resolve(files.bold)),
  };
  return loaded;
}
