import { defineConfig } from 'vitest/config';

// Integration tests share one Postgres server and one Redis; every test file gets its own database
// (cloned from a migrated template in globalSetup), so files may run in parallel.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summaryReporter.ts'],
  },
});
