import { configDefaults, defineConfig } from 'vitest/config';
import { LONG_TESTS } from './test/long-tests.js';

// Two projects: "quick" (`npm test`: everything but the long runs) and "long" (test/long-tests.ts).
// `npm run test:all` (CI) runs both.
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...LONG_TESTS] } },
      { extends: true, test: { name: 'long', include: [...LONG_TESTS] } },
    ],
  },
});
