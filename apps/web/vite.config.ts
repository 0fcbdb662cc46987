import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import rootPackage from '../../package.json';
import { koreanWithEnglishFallback } from './build-tools/korean-with-english-fallback.ts';
import { precompress } from './build-tools/precompress.ts';

/**
 * The product version and release date, read from the root package.json (the one place they are
 * bumped) and compiled into the app for the header's version popup (src/app/product-info.ts).
 */
export const productDefines = {
  __CDMS_VERSION__: JSON.stringify(rootPackage.version),
  __CDMS_RELEASE_DATE__: JSON.stringify(rootPackage.cdms.releaseDate),
};

export default defineConfig({
  // Brotli and gzip copies of the build beside each file, served by apps/server/src/web/static-web-app.ts.
  // Korean namespaces built with English for any key they lack (the fallback without a second file).
  plugins: [koreanWithEnglishFallback(), react(), precompress()],
  define: productDefines,
  server: {
    // `npm run dev:web` proxies the API to a server started with `npm run serve`.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
