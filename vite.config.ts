import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The NIST Monte Carlo and 10^6-value statistics tests take a few seconds.
    testTimeout: 60_000,
    pool: 'threads',
  },
});
