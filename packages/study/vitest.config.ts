import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'study',
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
