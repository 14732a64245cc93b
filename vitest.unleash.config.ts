// The suite against a real Unleash (test/unleash/): its own command, npm run test:unleash,
// because it installs a server of its own (test/servers/unleash, Debian's PostgreSQL) and
// takes a minute or more; `npm test` leaves it out.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unleash/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // each file starts its own PostgreSQL and Unleash: one at a time on a small machine
    maxWorkers: 1,
    fileParallelism: false,
  },
});
