import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server";

// Rate limits keep state per server and client address, so this file starts its own server.
describe("rate limits", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite", {
      PUBLIC_RATE_LIMIT_BURST: "3",
      PUBLIC_RATE_LIMIT_PER_SECOND: "0.1",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 429 with Retry-After once a client exceeds the public lookup limit", async () => {
    const call = () =>
      fetch(`${server.url}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: "ABCDEFG" }),
      });
    const first = await Promise.all([call(), call(), call()]);
    expect(first.map((r) => r.status)).not.toContain(429);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ code: "resource_exhausted" });
  });

  it("limits the public deny message resolution the same way", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${server.url}/palisade.policy.v1.PolicyService/ResolvePolicyKey`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "AccessDenied" }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    // Within a burst of 3 and one more every 10 s, five calls cannot all get through.
    expect(statuses).toContain(429);
  });

  it("rate limits password sign-in attempts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await server.signIn("nobody@palisade.test", "wrong-password")).status);
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await server.signIn("nobody@palisade.test", "wrong-password");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
