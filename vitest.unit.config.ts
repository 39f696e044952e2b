import { defineConfig } from 'vitest/config';

// Pure unit tests only (parsers, query builders, presenters): no database, no Redis.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
