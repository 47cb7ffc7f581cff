import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './scripts/summary-reporter.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// Tests import workspace packages from source, so they never wait on (or see a stale) build.
// Subpath `@parquetry/pkg/sub` maps to `packages/pkg/src/sub.ts`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^parquetry$/, replacement: `${root}packages/parquetry/src/index.ts` },
      { find: /^@parquetry\/([a-z0-9-]+)$/, replacement: `${root}packages/$1/src/index.ts` },
      { find: /^@parquetry\/([a-z0-9-]+)\/([a-z0-9-]+)$/, replacement: `${root}packages/$1/src/$2.ts` },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tools/*/test/**/*.test.ts'],
    reporters: ['default', new SummaryReporter()],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    benchmark: {
      include: ['packages/*/bench/**/*.bench.ts', 'tools/*/bench/**/*.bench.ts'],
    },
  },
});
