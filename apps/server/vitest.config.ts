import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The run's folder for migrated database templates, made on first use: each test database is a
    // copy (see test/support/database-templates.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Integration tests each start a server and a database, and spend much of their time waiting
    // on the sandbox cloud's delays: three at a time keep two cores busy without running out of
    // memory (a server on PGlite holds about 1 GB).
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
