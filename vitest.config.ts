import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources, so `npm test` needs no build step.
const alias = {
  '@flagmount/engine': src('./packages/engine/src/index.ts'),
  '@flagmount/core': src('./packages/core/src/index.ts'),
  '@flagmount/storage-memory': src('./packages/storage-memory/src/index.ts'),
  '@flagmount/storage-kysely': src('./packages/storage-kysely/src/index.ts'),
  '@flagmount/storage-sqlite': src('./packages/storage-sqlite/src/index.ts'),
  '@flagmount/storage-postgres': src('./packages/storage-postgres/src/index.ts'),
  '@flagmount/storage-conformance': src('./packages/storage-conformance/src/index.ts'),
  '@flagmount/openfeature': src('./packages/openfeature/src/index.ts'),
  '@flagmount/cli': src('./packages/cli/src/index.ts'),
  '@flagmount/express': src('./adapters/express/src/index.ts'),
  '@flagmount/koa': src('./adapters/koa/src/index.ts'),
  '@flagmount/fastify': src('./adapters/fastify/src/index.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'adapters/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/postgres/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Builds the dashboard when its sources changed since the last build: tests serve what they test.
          globalSetup: ['./test/support/dashboard-build.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'dashboard',
          include: ['packages/dashboard/test/**/*.test.tsx'],
          environment: 'happy-dom',
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'postgres',
          include: ['test/postgres/**/*.test.ts'],
          // Asks the server once per run: one skip line without it (outside CI), a failure with CI=true.
          globalSetup: ['./test/postgres/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
