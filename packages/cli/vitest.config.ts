import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The integration test starts a server with the sandbox cloud.
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
