import { defineConfig } from 'vitest/config';

// Integration tests share one Postgres server and one Redis; every test file gets its own database
// (cloned from a migrated template in globalSetup), so files may run in parallel.
// Files that measure latency under load run afterwards, alone: another file's load on a 2-core
// machine would be measured with them (issue 22's export load test).
const ALONE = ['test/integration/exportLoad.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summaryReporter.ts'],
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ALONE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
