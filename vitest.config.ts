import { defineConfig } from 'vitest/config';
import { writeValidators } from './scripts/writeValidatorsPlugin.mjs';

// Three projects: fast unit specs next to the code, API tests over a real server and database, and
// browser tests in Debian's Chromium against the built app.
export default defineConfig({
  test: {
    projects: [
      {
        // The dialog's validators (virtual:write-validators), built as for the app.
        plugins: [writeValidators()],
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['schemas/**/*.spec.ts', 'server/**/*.spec.ts', 'src/**/*.spec.{ts,tsx}'],
          environment: 'node',
          // Ceilings, not speeds: a CI host under heavy steal ran a 1 s spec past 15 s, so a spec
          // fails here only when it hangs. Speed is measured by `npm run bench`.
          testTimeout: 60000,
        },
      },
      {
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**'],
          environment: 'node',
          // Ceilings for a slow CI host (20 scrypt logins ran past 30 s under heavy steal).
          testTimeout: 120000,
          hookTimeout: 180000,
          // Two cores: two test files at a time, each with its own server and database.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'browser',
          sequence: { groupOrder: 2 },
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120000,
          hookTimeout: 120000,
          // Two files at a time, each with its own Chromium and server: one file alone leaves a
          // third to two thirds of two cores idle (waiting on the page, the network, timers).
          maxWorkers: 2,
        },
      },
    ],
  },
});
