import { defineConfig } from 'vitest/config';

// Two projects: fast unit specs next to the code, and API tests over a real server and database.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['schemas/**/*.spec.ts', 'server/**/*.spec.ts', 'src/**/*.spec.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          // Two cores: two test files at a time, each with its own server and database.
          maxWorkers: 2,
        },
      },
    ],
  },
});
