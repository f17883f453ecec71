import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./support/poll";
import { engines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

describe.each(engines)("job queue on %s", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs a job, and retries a failed attempt", async () => {
    const attempts: number[] = [];
    await server.palisade.jobs.register<{ value: number }>({
      name: "test-retry",
      retryDelaySeconds: 1,
      handler: async ({ data, retryCount }) => {
        attempts.push(data.value + retryCount);
        if (retryCount === 0) throw new Error("transient failure");
      },
    });
    await server.palisade.jobs.send("test-retry", { value: 10 });
    await waitFor("the retry", async () => attempts.length === 2, 15_000);
    expect(attempts).toEqual([10, 11]);
  });

  it("runs a job no earlier than asked", async () => {
    const ranAt: number[] = [];
    await server.palisade.jobs.register<{ id: string }>({
      name: "test-delayed",
      handler: async () => {
        ranAt.push(Date.now());
      },
    });
    const notBefore = Date.now() + 1_500;
    await server.palisade.jobs.send("test-delayed", { id: "a" }, { startAfter: new Date(notBefore) });
    await waitFor("the delayed job to run", async () => ranAt.length === 1, 15_000);
    expect(ranAt[0]).toBeGreaterThanOrEqual(notBefore - 50);
  });
});
