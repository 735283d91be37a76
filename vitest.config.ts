import { availableParallelism } from 'node:os';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { PAGE_WAIT_MS } from './tests/e2e/waits.ts';

/** Suites: pure logic in Node, the tooling, the collector inside workerd, the widget in real Chromium against a real collector. */
export default defineConfig({
  test: {
    // Test files mostly wait on workerd, wrangler dev and Chromium, each its own process: on 2 cores,
    // two files at a time (vitest's default is one fewer than the cores) took 552 s against 641 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The JSON report lets CI print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'dist/test-results.json' }]],
    projects: [
      {
        // Client modules that load models (`*.node.test.ts`) run in Node too: workerd has no onnxruntime.
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'widget/**/*.test.ts', 'client/**/*.node.test.ts', 'console/**/*.test.ts', 'tests/docs/**/*.test.ts'],
          exclude: ['console/**/*.e2e.test.ts'],
          environment: 'node',
        },
      },
      {
        // The tooling: widget build, `npm run keys` and the dev project, against real local D1 files; the loop's reduced benchmark.
        test: { name: 'scripts', include: ['scripts/**/*.test.ts', 'bench/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        // The demo app: corpus loading, answering, its routes; its page in Chromium runs with e2e.
        test: { name: 'demo', include: ['demo/**/*.test.ts'], exclude: ['demo/**/*.e2e.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        plugins: [
          cloudflareTest(async () => ({
            main: './collector/index.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations('./collector/migrations'),
                // Small limits so the rate-limit tests stay fast; every test has its own
                // project (key), sessions and client IP, so limits never leak between tests.
                RATE_LIMIT_KEY_PER_MIN: '2000',
                RATE_LIMIT_SESSION_PER_MIN: '300',
                RATE_LIMIT_IP_PER_MIN: '200',
              },
            },
          })),
        ],
        test: {
          name: 'collector',
          // One workerd runtime for all files of a worker instead of one per file: 103 s against 28 s.
          // Every test makes its own project, sessions and client IP, so nothing leaks between files.
          isolate: false,
          include: ['collector/**/*.test.ts', 'client/**/*.test.ts'],
          exclude: ['client/**/*.node.test.ts'],
          setupFiles: ['./collector/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts', 'demo/**/*.e2e.test.ts', 'console/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/e2e/global-setup.ts'],
          // Real Chromium against a real collector under wrangler dev; one file at a time on 2 cores.
          fileParallelism: false,
          // One process for all these files (each starts its own servers and browser), after the rest.
          isolate: false,
          sequence: { groupOrder: 1 },
          // A page load (bound at 30 s on a busy 2-core machine) must fit; the polls' own bounds catch a hang sooner.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // As long as a console page's own waits, as a poll often waits on a request to workerd (the
          // widget's pages wait 8 s, but a poll that passes returns as soon as it does).
          expect: { poll: { timeout: PAGE_WAIT_MS } },
        },
      },
    ],
  },
});
