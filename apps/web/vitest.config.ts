import { defineConfig } from 'vitest/config';
import { productDefines } from './vite.config.ts';

export default defineConfig({
  define: productDefines,
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build-tools/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
  },
});
