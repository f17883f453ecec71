import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The run's folder for migrated database templates, made on first use: each test database is a
    // copy (see test/support/database-templates.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Integration tests each start a server and a database; two at a time suits small machines.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
