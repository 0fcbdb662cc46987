import { defineConfig } from 'vitest/config';
import { koreanWithEnglishFallback } from './build-tools/korean-with-english-fallback.ts';
import { productDefines } from './vite.config.ts';

export default defineConfig({
  define: productDefines,
  plugins: [koreanWithEnglishFallback()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build-tools/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
  },
});
